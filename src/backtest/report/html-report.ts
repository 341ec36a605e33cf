/**
 * The backtest as one self-contained HTML page: the tables of the terminal report and four
 * inline SVG charts (cumulative net return, capital deployed against idle cash, default rate by
 * score band, offered-rate distribution). No scripts or external files: it opens offline.
 */
import type { BacktestResult } from '../backtest-result.js';
import type { DrawsSummary } from '../draws.js';
import { SEGMENT_DIMENSIONS, type SegmentRow } from '../segment-stats.js';
import { pct, sampleSizeWarning, summaryLines, usd } from './summary-lines.js';
import { barChart, escapeHtml, lineChart, type Bar } from './svg-charts.js';

const COLORS = ['#3b6ea5', '#d1495b', '#2e933c', '#edae49', '#6c4f9c', '#00798c'];

function runName(result: BacktestResult): string {
  return result.strategies.map((s) => s.name).join('+');
}

/** Offered rates in 0.02-wide buckets (the API's rates run 0.03 to 2.0). */
export function rateHistogram(rates: readonly number[], width = 0.02): Bar[] {
  if (rates.length === 0) return [];
  const counts = new Map<number, number>();
  for (const rate of rates) {
    const bucket = Math.floor(rate / width + 1e-9);
    counts.set(bucket, (counts.get(bucket) ?? 0) + 1);
  }
  const buckets = [...counts.keys()];
  const [low, high] = [Math.min(...buckets), Math.max(...buckets)];
  const bars: Bar[] = [];
  for (let b = low; b <= high; b += 1) bars.push({ label: (b * width).toFixed(2), value: counts.get(b) ?? 0 });
  return bars;
}

function table(rows: readonly SegmentRow[]): string {
  const head = ['', 'requests', 'offers', 'accepted', 'avg rate', 'deployed', 'interest', 'losses', 'default', 'net', 'ann. return'];
  const body = rows
    .map(
      (r) =>
        `<tr><th>${escapeHtml(r.key)}</th><td>${r.requests}</td><td>${r.offers}</td><td>${pct(r.acceptance)}</td><td>${r.averageRate === null ? '-' : r.averageRate.toFixed(4)}</td>` +
        `<td>${usd(r.deployedCents)}</td><td>${usd(r.interestCents)}</td><td>${usd(r.lossCents)}</td><td>${pct(r.defaultRate)}</td><td>${usd(r.netCents)}</td><td>${pct(r.annualizedReturn)}</td></tr>`,
    )
    .join('');
  return `<table><thead><tr>${head.map((h) => `<th>${h}</th>`).join('')}</tr></thead><tbody>${body}</tbody></table>`;
}

/** The headline paragraph: net annualized return on the capital over the draws, and the sample-size warning. */
function headline(result: BacktestResult, draws: DrawsSummary | undefined): string {
  const { summary } = result;
  let text = `Net annualized return on capital (idle cash included): <strong>${pct(summary.netAnnualizedReturn)}</strong>, ${summary.funded} loans funded`;
  if (draws && draws.draws.length > 1) {
    const r = draws.netAnnualizedReturn;
    text += ` (seed ${result.settings.market.seed}); mean over ${draws.draws.length} draws ${pct(r.mean)} (range ${pct(r.min)} to ${pct(r.max)}, smallest to largest draw)`;
  }
  const warning = sampleSizeWarning(summary);
  return `<p class="headline">${text}.</p>${warning ? `<p class="warning">Warning: ${escapeHtml(warning)}.</p>` : ''}`;
}

function runSection(result: BacktestResult, index: number, draws?: DrawsSummary): string {
  const color = COLORS[index % COLORS.length] ?? '#333';
  const strategies = result.strategies
    .map((s) => `<li><code>${escapeHtml(s.name)}</code> ${escapeHtml(s.version)}, <code>${escapeHtml(s.file)}</code>, content <code>${s.contentHash}</code>, params <code>${escapeHtml(JSON.stringify(s.params))}</code></li>`)
    .join('');
  const points = (pick: (p: BacktestResult['series'][number]) => number): Array<[number, number]> => result.series.map((p) => [Date.parse(p.at), pick(p)]);
  const bands = result.segments.score_band.filter((row) => row.funded > 0).map((row) => ({ label: row.key, value: row.defaultRate }));
  return [
    `<section><h2>${escapeHtml(runName(result))}</h2><ul>${strategies}</ul>`,
    headline(result, draws),
    `<table class="summary"><tbody>${summaryLines(result.summary).map(([k, v]) => `<tr><th>${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`).join('')}</tbody></table>`,
    lineChart('capital', 'Capital deployed and idle cash (USD)', [
      { name: 'deployed', color, points: points((p) => p.deployedCents / 100) },
      { name: 'idle cash', color: '#999999', points: points((p) => p.idleCents / 100) },
    ], (v) => v.toFixed(0)),
    barChart('default-by-band', 'Default rate by score band (funded loans)', bands, pct, color),
    barChart('offered-rates', 'Offered rates (offers that passed the guard)', rateHistogram(result.offeredRates), (v) => String(v), color),
    ...SEGMENT_DIMENSIONS.map((d) => `<h3>By ${d.replace('_', ' ')}</h3>${table(result.segments[d])}`),
    '</section>',
  ].join('\n');
}

/** The whole page, one section per run. */
export function backtestHtml(results: readonly BacktestResult[], source: string, draws: readonly (DrawsSummary | undefined)[] = []): string {
  const first = results[0];
  const net = lineChart(
    'net-return',
    'Cumulative net return (share of the starting balance)',
    results.map((r, i) => ({
      name: runName(r),
      color: COLORS[i % COLORS.length] ?? '#333',
      points: r.series.map((p): [number, number] => [Date.parse(p.at), r.settings.startingBalanceCents > 0 ? p.netCents / r.settings.startingBalanceCents : 0]),
    })),
    pct,
  );
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>lendbot backtest: ${escapeHtml(source)}</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222;max-width:1100px}
table{border-collapse:collapse;margin:8px 0 16px}th,td{padding:3px 8px;border-bottom:1px solid #e3e3e3;text-align:right}
th:first-child{text-align:left}table.summary td{text-align:left}figure{margin:16px 0}figcaption{font-weight:600}
.legend{margin:4px 0;font-size:12px}code{font-size:12px}.warning{color:#a33;font-weight:600}
</style></head><body>
<h1>Backtest of ${escapeHtml(source)}</h1>
<p>${first ? `${first.period.requests} requests seen ${escapeHtml(first.period.from ?? '-')} to ${escapeHtml(first.period.to ?? '-')}; cash flows to ${escapeHtml(first.period.end ?? '-')}; starting balance ${usd(first.settings.startingBalanceCents)}.` : 'No requests.'}
Market model: docs/backtesting.md.</p>
${net}
${results.map((r, i) => runSection(r, i, draws[i])).join('\n')}
</body></html>
`;
}
