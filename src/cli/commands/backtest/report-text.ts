/**
 * The backtest report for a terminal, in the spirit of freqtrade's backtest tables: the headline
 * (net annualized return on the capital, over the draws), one table per segment dimension, a
 * summary, the sensitivity to borrowers' rate sensitivity, and what is needed to reproduce the run.
 */
import type { BacktestResult, DrawsSummary, SensitivityCase, Spread, WorldsBand } from '../../../backtest/index.js';
import {
  ADVERSE_SELECTION_HEADER,
  ADVERSE_SELECTION_NOTE,
  adverseSelectionRows,
  bandHeadline,
  cannotBeJudged,
  cannotBeJudgedReason,
  CANNOT_BE_JUDGED,
  COMPETITION_HEADER,
  competitionRows,
  headlineExplained,
  idleHeadline,
  offerOutcomesText,
  pct,
  riskLevelLabel,
  runName,
  sampleSizeWarning,
  SEGMENT_DIMENSIONS,
  SENSITIVITY_HEADER,
  sensitivityNote,
  sensitivityRows,
  sensitivityTitle,
  sideBySideRows,
  summaryLines,
  unjudgedWarning,
  usd,
  WORLDS_HEADER,
  worldsRows,
  type SegmentRow,
} from '../../../backtest/index.js';
import { formatTable } from '../strategy/text-table.js';
import { unfittedMarketText } from '../../../engine/market-source.js';
import type { TakeUpCurve } from '../../../engine/index.js';
import { calibrationSection } from './calibration-text.js';
import { cashSection } from '../../../backtest/report/cash-section.js';
import { calibrationWarnings } from '../../../backtest/calibration/index.js';

const TITLES: Record<(typeof SEGMENT_DIMENSIONS)[number], string> = {
  risk_level: 'By risk level',
  score_band: 'By score band (provider B)',
  term: 'By term (months)',
  strategy: 'By strategy',
};

/** What the command adds to a run's report. */
export interface ReportExtras {
  /** The conditions line: where the risk limits and the starting balance came from (conditions.ts). */
  conditions?: string | undefined;
  draws?: DrawsSummary | undefined;
  sensitivity?: readonly SensitivityCase[] | undefined;
  /** The band across borrower worlds (absent: --no-worlds, a dry run, or a run the recording cannot judge). */
  worlds?: WorldsBand | undefined;
}

function segmentTable(rows: readonly SegmentRow[], keyLabel: (key: string) => string = (key) => key): string {
  const header = [
    '',
    'requests',
    'offers',
    'accepted',
    'avg rate',
    'deployed',
    'interest',
    'losses',
    'recoveries',
    'default',
    'net',
    'ann. return',
  ];
  const cells = rows.map((row) => [
    keyLabel(row.key),
    String(row.requests),
    String(row.offers),
    pct(row.acceptance),
    row.averageRate === null ? '-' : row.averageRate.toFixed(4),
    usd(row.deployedCents),
    usd(row.interestCents),
    usd(row.lossCents),
    usd(row.recoveryCents),
    pct(row.defaultRate),
    usd(row.netCents),
    pct(row.annualizedReturn),
  ]);
  return formatTable(header, cells, '  ');
}

const range = (spread: Spread, format: (n: number) => string): string => `${format(spread.min)} to ${format(spread.max)}`;

function header(result: BacktestResult, source: string, extras: ReportExtras): string {
  const lines = [
    `Backtest of ${source}: ${result.period.requests} requests seen ${result.period.from ?? '-'} to ${result.period.to ?? '-'}, cash flows to ${result.period.end ?? '-'}`,
  ];
  for (const strategy of result.strategies) {
    const params = Object.entries(strategy.params)
      .map(([name, value]) => `${name}=${value}`)
      .join(' ');
    lines.push(
      `Strategy ${strategy.name} ${strategy.version} (${strategy.file}, content ${strategy.contentHash})${params ? `, params ${params}` : ''}`,
    );
    const unfitted = unfittedMarketText(strategy.marketSource);
    if (unfitted !== undefined) lines.push(`  ${unfitted}`);
  }
  const { market, startingBalanceCents } = result.settings;
  if (extras.conditions) lines.push(`Conditions: ${extras.conditions}`);
  const balance = `Starting balance ${usd(startingBalanceCents)} USD`;
  lines.push(
    `${balance}; unknown competition: ${market.unknownCompetition}; decision after ${market.decisionDelayMs / 3_600_000}h; ${market.settle ? 'offers settle' : 'offers never settle (dry run)'}`,
  );
  if (market.settle) {
    const { takeUp, competition } = market.response;
    lines.push(
      `Market: take-up midpoint ${takeUp.midpoint}, steepness ${takeUp.steepness}${perDefaultText(takeUp)}; competition ${market.comparison === 'soft' ? `soft (width ${competition.width})` : 'hard'}; ` +
        `prepayment ${pct(market.prepayment.share)} of completed loans at ${market.prepayment.atTermFraction} of the term; ` +
        `recoveries ${market.recoveryDelayMonths} months after the first missed instalment; seed ${market.seed}`,
    );
  }
  return lines.join('\n') + '\n';
}

/** The headline: net annualized return on the capital, this draw and over all draws, and the sample-size warning. */
function headline(result: BacktestResult, extras: ReportExtras): string {
  const { summary, settings } = result;
  if (cannotBeJudged(summary)) return unjudgeableHeadline(result);
  const draws = extras.draws;
  const loans = summary.funded === 1 ? '1 loan' : `${summary.funded} loans`;
  let line = `\nNet annualized return on capital (idle cash included): ${pct(summary.netAnnualizedReturn)}, ${loans} funded`;
  if (draws && draws.draws.length > 1) {
    line +=
      ` (seed ${settings.market.seed}); mean over ${draws.draws.length} draws ${pct(draws.netAnnualizedReturn.mean)}` +
      ` (range ${range(draws.netAnnualizedReturn, pct)}, smallest to largest draw), ${draws.funded.mean.toFixed(0)} loans funded on average`;
  }
  // Beside the return, the money that earned nothing and why (the caps or the market's flow).
  const idle = idleHeadline(summary, settings.market.settle);
  const lines = [line, `${idle.text.charAt(0).toUpperCase()}${idle.text.slice(1)}`];
  // The headline is the band, and the figure above is one of its ends' candidates: say what it is.
  if (extras.worlds) lines.push(bandHeadline(extras.worlds), headlineExplained(extras.worlds));
  const outcomes = settings.market.settle ? offerOutcomesText(result.offerStats) : null;
  if (outcomes) lines.push(outcomes);
  const warning = sampleSizeWarning(summary);
  if (warning) lines.push(`warning: ${warning}`);
  // What the recording could not judge: a daemon's own recording knows only its own loans.
  if (settings.market.settle && summary.offers > 0) {
    lines.push(`Offers judged without an outcome: ${summary.unjudgedOffers} of ${summary.offers} (${pct(summary.unjudgedShare)})`);
  }
  const unjudged = unjudgedWarning(summary);
  if (unjudged) lines.push(`warning: ${unjudged}`);
  for (const off of calibrationWarnings(result.calibration ?? [])) lines.push(`warning: ${off}`);
  return lines.join('\n') + '\n';
}

/** A run none of whose offers the recording could judge: no return, only what became of the offers and why. */
function unjudgeableHeadline(result: BacktestResult): string {
  const lines = [`\nNet annualized return on capital: ${CANNOT_BE_JUDGED}: ${cannotBeJudgedReason(result.summary)}`];
  const outcomes = offerOutcomesText(result.offerStats);
  if (outcomes) lines.push(outcomes);
  const unjudged = unjudgedWarning(result.summary);
  if (unjudged) lines.push(`warning: ${unjudged}`);
  return lines.join('\n') + '\n';
}

/** The table, or the note that says why there is none (the curve judged no offer). */
function sensitivitySection(cases: readonly SensitivityCase[], result: BacktestResult, draws: DrawsSummary): string {
  const note = sensitivityNote(result);
  if (note?.replacesTable) return `\n${note.text}\n`;
  if (cases.length === 0) return '';
  const after = note ? `${note.text}\n` : '';
  return `\n${sensitivityTitle(draws.draws.length)}\n${formatTable(SENSITIVITY_HEADER, sensitivityRows(cases, result, draws), '  ')}${after}`;
}

function competitionSection(result: BacktestResult): string {
  const competition = formatTable(COMPETITION_HEADER, competitionRows(result.offerStats), '  ');
  const adverse = formatTable(ADVERSE_SELECTION_HEADER, adverseSelectionRows(result.offerStats), '  ');
  return `\nCompetition and adverse selection (seed ${result.settings.market.seed})\n${competition}\n${adverse}\n${ADVERSE_SELECTION_NOTE}\n`;
}

function worldsSection(band: WorldsBand, result: BacktestResult, draws: DrawsSummary | undefined): string {
  const table = formatTable(WORLDS_HEADER, worldsRows(band, draws ? { draws, offerStats: result.offerStats } : undefined), '  ');
  return `\nBorrower worlds: the headline, then the same ${draws?.draws.length ?? 1} draws with borrowers who answer a rate by different rules (docs/backtesting.md); defaults of the first draw\n${table}`;
}

/** One run's full report. */
export function formatBacktest(result: BacktestResult, source: string, extras: ReportExtras = {}): string {
  const parts = [header(result, source, extras), headline(result, extras)];
  for (const dimension of SEGMENT_DIMENSIONS)
    parts.push(
      `\n${TITLES[dimension]}\n${segmentTable(result.segments[dimension], dimension === 'risk_level' ? riskLevelLabel : undefined)}`,
    );
  parts.push(
    `\nSummary (seed ${result.settings.market.seed})\n${formatTable(['', ''], summaryLines(result.summary), '  ').split('\n').slice(1).join('\n')}`,
  );
  if (result.settings.market.settle) parts.push(competitionSection(result));
  parts.push(cashSection(result.summary));
  if (extras.worlds) parts.push(worldsSection(extras.worlds, result, extras.draws));
  if (extras.sensitivity && extras.draws) parts.push(sensitivitySection(extras.sensitivity, result, extras.draws));
  if (result.calibration) parts.push(calibrationSection(result.calibration));
  return parts.join('');
}

/** Several runs' summaries side by side, one column per strategy (rows shared with the HTML report). */
export function formatSideBySide(results: readonly BacktestResult[], draws: readonly DrawsSummary[] = []): string {
  return `\nSide by side\n${formatTable(['', ...results.map(runName)], sideBySideRows(results, draws), '  ')}`;
}

/** A borrower-dependent take-up's terms, for the Market line (empty when the curve is the same for everyone). */
function perDefaultText(takeUp: TakeUpCurve): string {
  const terms = [
    takeUp.midpointPerDefault ? `midpoint ${takeUp.midpointPerDefault >= 0 ? '+' : ''}${takeUp.midpointPerDefault}` : '',
    takeUp.steepnessPerDefault ? `steepness ${takeUp.steepnessPerDefault >= 0 ? '+' : ''}${takeUp.steepnessPerDefault}` : '',
  ].filter((term) => term !== '');
  return terms.length === 0 ? '' : ` (${terms.join(', ')} per unit of the strategy's default probability)`;
}
