/** The summary of a backtest as labelled lines, shared by the terminal and HTML reports. */
import { riskLevelName } from '../../log/plain-figures.js';
import { formatCents } from '../../domain/index.js';
import type { BacktestResult, BacktestSummary } from '../backtest-result.js';
import type { DrawsSummary } from '../draws.js';
import { CANNOT_BE_JUDGED, cannotBeJudged } from './unjudgeable.js';

/** Below this many funded loans a backtest's figures are mostly luck (every report says so). */
export const MIN_FUNDED_LOANS = 100;

/** The warning every report prints for a small sample, or null. */
export function sampleSizeWarning(summary: Pick<BacktestSummary, 'funded'>): string | null {
  if (summary.funded >= MIN_FUNDED_LOANS) return null;
  return `fewer than ${MIN_FUNDED_LOANS} funded loans (${summary.funded}): the figures are noise-level`;
}

export const pct = (share: number): string => `${(share * 100).toFixed(1)}%`;
export const usd = (cents: number): string => formatCents(Math.round(cents));
/** Dollars with a sign and thousands separators ("$1,234.56", "-$12.00"), for pages people read. */
export const dollars = (cents: number): string => {
  const text = usd(Math.abs(cents)).replace(/\B(?=(\d{3})+\.)/g, ',');
  return cents < 0 && Math.round(cents) !== 0 ? `-$${text}` : `$${text}`;
};

/**
 * "61.2% (and 3.1% held by open offers); 40.0% while requests arrived": free cash, then cash held
 * by offers, as shares of the money over the whole run, then free cash until the last request.
 */
export function idleCashText(summary: Pick<BacktestSummary, 'idleShare' | 'reservedShare' | 'idleShareWhileRequests'>): string {
  const held = summary.reservedShare > 0 ? ` (and ${pct(summary.reservedShare)} held by open offers)` : '';
  return `${pct(summary.idleShare)}${held}; ${pct(summary.idleShareWhileRequests)} while requests arrived`;
}

/** A risk level as a report names it: "low (0)", "high (2)" (borrower_card_color in brackets). */
export const riskLevelLabel = (level: number | string): string => `${riskLevelName(level)} (${level})`;

/** The run's name in reports: its strategies' names joined by "+". */
export const runName = (result: Pick<BacktestResult, 'strategies'>): string => result.strategies.map((s) => s.name).join('+');

/** The summary's lines as [label, value] pairs (also the rows of the side-by-side table); `money` formats cents. */
export function summaryLines(summary: BacktestSummary, money: (cents: number) => string = usd): Array<[string, string]> {
  const refusals = Object.entries(summary.guardRefusals)
    .map(([code, count]) => `${code} ${count}`)
    .join(', ');
  return [
    // A return on offers the recording could not judge is no result: 0 % would read as one.
    ['net annualized return (on capital)', cannotBeJudged(summary) ? CANNOT_BE_JUDGED : pct(summary.netAnnualizedReturn)],
    ['requests', String(summary.requests)],
    ['offers', String(summary.offers)],
    ['loans funded', String(summary.funded)],
    ['capital deployed', money(summary.deployedCents)],
    ['interest earned', money(summary.interestCents)],
    ['losses (written off)', money(summary.lossCents)],
    ['recoveries', money(summary.recoveryCents)],
    [
      'data spend',
      summary.subscriptionCents > 0
        ? `${money(summary.dataSpendCents)} (subscriptions ${money(summary.subscriptionCents)})`
        : money(summary.dataSpendCents),
    ],
    ['net', money(summary.netCents)],
    ['default rate', pct(summary.defaultRate)],
    ['return on deployed (annualized)', pct(summary.returnOnDeployed)],
    ['capital utilization', pct(summary.capitalUtilization)],
    ['average cash (idle or held by offers)', money(summary.averageIdleCents)],
    ['idle cash, share of the money over time', idleCashText(summary)],
    ['max drawdown', pct(summary.maxDrawdown)],
    ['largest exposure', money(summary.largestExposureCents)],
    ['largest borrower exposure', money(summary.largestBorrowerExposureCents)],
    ['final balance', money(summary.finalBalanceCents)],
    ['still open (current loans)', money(summary.openCents)],
    ['won but unfundable (balance)', String(summary.fundingFailures)],
    ['guard refusals', refusals === '' ? 'none' : refusals],
  ];
}

/**
 * Several runs' summaries side by side: a label, then one value per run (the terminal's "Side by
 * side" table and the HTML comparison table). Over several draws, the mean and range come first.
 */
export function sideBySideRows(
  results: readonly BacktestResult[],
  draws: readonly DrawsSummary[] = [],
  money: (cents: number) => string = usd,
): string[][] {
  const columns = results.map((r) => summaryLines(r.summary, money));
  const rows = (columns[0] ?? []).map(([label], index) => [label, ...columns.map((c) => c[index]?.[1] ?? '')]);
  if (draws.length === results.length && (draws[0]?.draws.length ?? 0) > 1) {
    const judged = (i: number, text: string): string => (results[i] && cannotBeJudged(results[i].summary) ? CANNOT_BE_JUDGED : text);
    // Every row under the mean is the first draw's: its return said so, or "8.9 %" stood under
    // "9.1 %, mean of 5 draws" as a second figure for the same thing.
    const first = rows[0];
    if (first !== undefined)
      first[0] = `net ann. return of draw 1 (seed ${results[0]?.settings.market.seed ?? '?'}; the rows below are its figures)`;
    rows.unshift(
      [`net ann. return, mean of ${draws[0]?.draws.length ?? 0} draws`, ...draws.map((d, i) => judged(i, pct(d.netAnnualizedReturn.mean)))],
      [
        '  range over the draws',
        ...draws.map((d, i) => judged(i, `${pct(d.netAnnualizedReturn.min)} to ${pct(d.netAnnualizedReturn.max)}`)),
      ],
    );
  }
  return rows;
}
