/**
 * The backtest as one self-contained HTML page that opens from disk or from the dashboard with no
 * network: Chart.js inlined, the figures as a JSON block (id "report-data"), the tables written
 * out. What it shows: warnings first (sample size, unjudged offers), the strategies side by side,
 * equity and drawdown in dollars over time, results by risk level, offered rates, each run's
 * settings and segment tables, and every funded loan with its outcome (docs/backtesting.md).
 */
import { basename } from 'node:path';
import type { BacktestLoan, BacktestResult, BacktestSummary, StrategyRun } from '../backtest-result.js';
import type { DrawsSummary, SensitivityCase } from '../draws.js';
import { unfittedMarketText } from '../../engine/market-source.js';
import { unjudgedWarning } from '../market-model.js';
import type { SegmentRow } from '../segment-stats.js';
import { chartJsSource, scriptSafe } from './chartjs-source.js';
import { REPORT_CLIENT_SCRIPT } from './report-client.js';
import { reportCharts, type ChartSpec } from './report-charts.js';
import { comparisonTable, escapeHtml, loansTable, segmentTable } from './report-tables.js';
import { calibrationHtml } from './calibration-section.js';
import { cashHtml } from './cash-section.js';
import { dollars, MIN_FUNDED_LOANS, pct, riskLevelLabel, runName, sampleSizeWarning } from './summary-lines.js';
import type { OfferStats } from '../offer-stats.js';
import type { WorldsBand } from '../worlds-band.js';
import { competitionHtml, offerOutcomesText } from './adverse-selection.js';
import { sensitivityHtml } from './sensitivity-section.js';
import { verdictLine } from './verdict.js';
import { idleHeadline } from './idle-headline.js';
import { bandHeadline, worldsHtml } from './worlds-band-section.js';
import { CANNOT_BE_JUDGED, cannotBeJudged, cannotBeJudgedReason } from './unjudgeable.js';

/** What the command adds to the page beyond the runs, their draws and their bands. */
export interface HtmlExtras {
  /** Each run's sensitivity cases (`sensitivity[i]` belongs to `results[i]`); undefined: not asked for; empty: none computed (the section's note says why, or nothing). */
  sensitivity?: ReadonlyArray<readonly SensitivityCase[] | undefined>;
  /** The conditions the runs were backtested on and where they came from ("risk limits from config/lendbot.yaml; ..."). */
  conditions?: string;
}

/** The JSON block's shape: the result's own figures (not recomputed) and the charts' data. */
export interface ReportData {
  version: 1;
  source: string;
  /** The one-line verdict at the top of the page; null without runs. */
  verdict: string | null;
  /** The backtest's conditions as the page states them; null when the caller said nothing. */
  conditions: string | null;
  minFundedLoans: number;
  runs: Array<{
    name: string;
    strategies: StrategyRun[];
    startingBalanceCents: number;
    summary: BacktestSummary;
    riskLevels: SegmentRow[];
    sampleSizeWarning: string | null;
    /** Competition and adverse selection per strategy (offer-stats.ts). */
    offerStats: OfferStats[];
    /** The band across borrower worlds; null when not run. */
    worlds: WorldsBand | null;
    /** Borrowers more and less rate-sensitive; empty when not run. */
    sensitivity: readonly SensitivityCase[];
  }>;
  charts: ChartSpec[];
}

function reportData(
  results: readonly BacktestResult[],
  source: string,
  worlds: ReadonlyArray<WorldsBand | null> = [],
  draws: ReadonlyArray<DrawsSummary | undefined> = [],
  extras: HtmlExtras = {},
): ReportData {
  return {
    version: 1,
    source,
    verdict: verdictLine(results, draws, worlds),
    conditions: extras.conditions ?? null,
    minFundedLoans: MIN_FUNDED_LOANS,
    runs: results.map((r, i) => ({
      name: runName(r),
      strategies: r.strategies,
      startingBalanceCents: r.settings.startingBalanceCents,
      summary: r.summary,
      riskLevels: r.segments.risk_level,
      sampleSizeWarning: cannotBeJudged(r.summary) ? null : sampleSizeWarning(r.summary),
      offerStats: r.offerStats,
      worlds: worlds[i] ?? null,
      sensitivity: extras.sensitivity?.[i] ?? [],
    })),
    charts: reportCharts(results),
  };
}

/** JSON inside <script type="application/json">: no "<" survives, so nothing in it can close the element. */
const jsonForScript = (value: unknown): string => JSON.stringify(value).replace(/</g, '\\u003c');

function chart(spec: ChartSpec): string {
  if (spec.empty !== undefined) return `<p class="no-chart" data-chart="${spec.id}">${escapeHtml(spec.empty)}</p>`;
  const title = escapeHtml(spec.title);
  return `<figure class="chart"><figcaption>${title}</figcaption><div class="plot"><canvas id="chart-${spec.id}" role="img" aria-label="${title}"></canvas></div></figure>`;
}

function warnings(results: readonly BacktestResult[]): string {
  // A run the recording cannot judge funded nothing because of that: its unjudged warning says so, not the sample size.
  const sampleWarning = (r: BacktestResult): string | null => (cannotBeJudged(r.summary) ? null : sampleSizeWarning(r.summary));
  const lines = results.flatMap((r) =>
    [sampleWarning(r), unjudgedWarning(r.summary)].filter((w): w is string => w !== null).map((w) => `${runName(r)}: ${w}`),
  );
  if (lines.length === 0) return '';
  const luck = results.some((r) => sampleWarning(r) !== null)
    ? `<p>Below ${MIN_FUNDED_LOANS} funded loans the figures are mostly luck: judge nothing from them.</p>`
    : '';
  return `<div class="warning" role="alert"><strong>Warning</strong>${lines.map((l) => `<p>${escapeHtml(l)}.</p>`).join('')}${luck}</div>`;
}

function headline(result: BacktestResult, draws: DrawsSummary | undefined, band: WorldsBand | null = null): string {
  const { summary, settings } = result;
  if (cannotBeJudged(summary)) {
    const outcomes = offerOutcomesText(result.offerStats);
    return (
      `<p class="headline" data-judged="no">Net annualized return on capital: <strong>${CANNOT_BE_JUDGED}</strong>: ${escapeHtml(cannotBeJudgedReason(summary))}.</p>` +
      (outcomes ? `<p class="offers">${escapeHtml(outcomes)}.</p>` : '')
    );
  }
  let text = `Net annualized return on capital (idle cash included): <strong>${pct(summary.netAnnualizedReturn)}</strong>, ${summary.funded.toLocaleString('en-US')} loans funded`;
  if (draws && draws.draws.length > 1) {
    const r = draws.netAnnualizedReturn;
    text += ` (seed ${settings.market.seed}); mean over ${draws.draws.length} draws ${pct(r.mean)} (range ${pct(r.min)} to ${pct(r.max)}, smallest to largest draw)`;
  }
  const unjudged =
    settings.market.settle && summary.offers > 0
      ? `<p>Offers judged without an outcome: ${summary.unjudgedOffers} of ${summary.offers} (${pct(summary.unjudgedShare)}).</p>`
      : '';
  const range = band ? `<p class="band">${escapeHtml(bandHeadline(band))}.</p>` : '';
  // Beside the return, the money that earned nothing and why (the caps or the market's flow).
  const idle = idleHeadline(summary, settings.market.settle);
  const idleLine = `<p class="idle" data-idle-cause="${idle.cause ?? 'none'}">${escapeHtml(idle.text.charAt(0).toUpperCase() + idle.text.slice(1))}.</p>`;
  const outcomes = settings.market.settle ? offerOutcomesText(result.offerStats) : null;
  const offers = outcomes ? `<p class="offers">${escapeHtml(outcomes)}.</p>` : '';
  return `<p class="headline">${text}.</p>${idleLine}${range}${offers}${unjudged}`;
}

const SEGMENT_TITLES = {
  score_band: ['By score band (provider B)', 'score band'],
  term: ['By term', 'term (months)'],
  strategy: ['By strategy', 'strategy'],
} as const;

function runSection(result: BacktestResult, draws: DrawsSummary | undefined, band: WorldsBand | null = null): string {
  const { market } = result.settings;
  const strategies = result.strategies
    .map((s) => {
      const params = Object.entries(s.params)
        .map(([name, value]) => `${name}=${value}`)
        .join(' ');
      const text = unfittedMarketText(s.marketSource);
      const unfitted = text !== undefined ? ` <strong class="unfitted-market">${escapeHtml(text)}</strong>` : '';
      return `<li><code>${escapeHtml(s.name)}</code> version ${escapeHtml(s.version)}, <code>${escapeHtml(s.file)}</code>, content <code>${escapeHtml(s.contentHash)}</code>${params ? `, params <code>${escapeHtml(params)}</code>` : ''}${unfitted}</li>`;
    })
    .join('');
  const settle = market.settle
    ? `offers settle after ${market.decisionDelayMs / 3_600_000} h; seed ${market.seed}`
    : 'offers never settle (dry run)';
  const others = (Object.keys(SEGMENT_TITLES) as Array<keyof typeof SEGMENT_TITLES>)
    .map((d) => `<h4>${SEGMENT_TITLES[d][0]}</h4>${segmentTable(SEGMENT_TITLES[d][1], result.segments[d])}`)
    .join('');
  return (
    `<section class="run"><h3>${escapeHtml(runName(result))}</h3><ul>${strategies}</ul>` +
    `<p>Starting balance ${dollars(result.settings.startingBalanceCents)}; ${settle}; unknown competition: ${escapeHtml(String(market.unknownCompetition))}.</p>` +
    headline(result, draws, band) +
    `<h4>By risk level</h4>${segmentTable('risk level', result.segments.risk_level, riskLevelLabel)}` +
    `<details><summary>By score band, term and strategy</summary>${others}</details></section>`
  );
}

function loansSection(results: readonly BacktestResult[]): string {
  const loans = results.flatMap((r) => r.loans.map((loan: BacktestLoan) => ({ run: runName(r), loan })));
  const counts = (['repaid', 'defaulted', 'open'] as const)
    .map((o) => `${loans.filter((l) => l.loan.outcome === o).length.toLocaleString('en-US')} ${o}`)
    .join(', ');
  if (loans.length === 0) return '<h2>Loans</h2><p class="no-loans">No loan was funded.</p>';
  // Long lists start folded so the charts stay near the top of the page.
  return `<h2>Loans</h2><details${loans.length <= 200 ? ' open' : ''}><summary>${loans.length.toLocaleString('en-US')} funded loans: ${counts}. Profit is interest + recoveries − losses; open loans are still running where the recording ends.</summary>${loansTable(loans)}</details>`;
}

const STYLE = `body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;padding:16px 24px;color:#222;max-width:1280px}
h1{font-size:1.5em}h2{margin-top:2em;border-bottom:1px solid #ddd}
table{border-collapse:collapse;margin:8px 0 16px;font-variant-numeric:tabular-nums}th,td{padding:3px 7px;border-bottom:1px solid #e6e6e6;text-align:right;white-space:nowrap}
th:first-child,td:first-child{text-align:left}tbody th:first-child{white-space:normal;min-width:8em;max-width:24em}thead th{background:#f4f4f4;white-space:normal;vertical-align:bottom;min-width:4em}.scroll{overflow-x:auto}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,520px),1fr));gap:16px}
figure.chart{margin:0}figcaption{font-weight:600;margin-bottom:4px}.plot{position:relative;width:100%;height:320px}
.verdict{font-size:1.08em;border-left:4px solid #3b6ea5;background:#f3f7fb;padding:8px 14px}.conditions{color:#444}
.warning{border:2px solid #c0392b;background:#fdecea;color:#7b1d12;padding:8px 14px;margin:12px 0}.warning p{margin:4px 0}
.no-chart,.no-loans{color:#555;font-style:italic}code{font-size:.9em}table.loans{font-size:.92em}
tr[data-outcome=defaulted] td{color:#a32}details{margin:8px 0}summary{cursor:pointer}
ul.findings li.off{color:#7b1d12}
table.comparison td{white-space:normal;min-width:6em}.sensitivity-note,.band-headline{color:#444}`;

/** The whole page; `draws[i]`, `worlds[i]` and `extras.sensitivity[i]` belong to `results[i]`. */
export function backtestHtml(
  results: readonly BacktestResult[],
  source: string,
  draws: readonly (DrawsSummary | undefined)[] = [],
  worlds: ReadonlyArray<WorldsBand | null> = [],
  extras: HtmlExtras = {},
): string {
  const data = reportData(results, source, worlds, draws, extras);
  const names = results.map(runName);
  const title = `lendbot backtest: ${names.join(' vs ') || 'no strategy'} on ${basename(source) || 'a recording'}`;
  const first = results[0];
  const period = first
    ? `${first.period.requests.toLocaleString('en-US')} requests seen ${first.period.from ?? '-'} to ${first.period.to ?? '-'}; cash flows followed to ${first.period.end ?? '-'}`
    : 'No run';
  const charts = (ids: readonly string[]): string =>
    `<div class="charts">${data.charts
      .filter((c) => ids.includes(c.id))
      .map(chart)
      .join('')}</div>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style></head><body>
<h1>${escapeHtml(title)}</h1>
${data.verdict ? `<p class="verdict"><strong>Verdict:</strong> ${escapeHtml(data.verdict)}.</p>` : ''}
${data.conditions ? `<p class="conditions">Conditions: ${escapeHtml(data.conditions)}.</p>` : ''}
<p>Recording <code>${escapeHtml(source)}</code>: ${escapeHtml(period)}. The market model and every figure: docs/backtesting.md.</p>
${warnings(results)}
<h2>Strategies side by side</h2><div class="scroll">${comparisonTable(
    results,
    draws.filter((d): d is DrawsSummary => d !== undefined),
  )}</div>
${worldsHtml(
  names,
  worlds,
  results.map((r, i) => {
    const d = draws[i];
    return d ? { draws: d, offerStats: r.offerStats } : undefined;
  }),
)}
${sensitivityHtml(results, names, draws, extras.sensitivity ?? [])}
${competitionHtml(results)}
${calibrationHtml(results)}
${cashHtml(results)}
<h2>Over time</h2>${charts(['equity', 'drawdown', 'idle-cash'])}
<h2>By risk level</h2>${charts(['default-rate-by-risk', 'return-by-risk'])}
<h2>Offered rates</h2>${charts(['offered-rates'])}
<h2>Each run</h2><div class="scroll">${results.map((r, i) => runSection(r, draws[i], worlds[i] ?? null)).join('\n')}</div>
${loansSection(results)}
<noscript><p>The charts need JavaScript; the tables above do not.</p></noscript>
<script type="application/json" id="report-data">${jsonForScript(data)}</script>
<script>${scriptSafe(chartJsSource())}</script>
<script>${REPORT_CLIENT_SCRIPT}</script>
</body></html>
`;
}
