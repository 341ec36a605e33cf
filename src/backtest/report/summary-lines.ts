/** The summary of a backtest as labelled lines, shared by the terminal and HTML reports. */
import { formatCents } from '../../service/index.js';
import type { BacktestSummary } from '../backtest-result.js';

/** Below this many funded loans a backtest's figures are mostly luck (every report says so). */
export const MIN_FUNDED_LOANS = 100;

/** The warning every report prints for a small sample, or null. */
export function sampleSizeWarning(summary: Pick<BacktestSummary, 'funded'>): string | null {
  if (summary.funded >= MIN_FUNDED_LOANS) return null;
  return `fewer than ${MIN_FUNDED_LOANS} funded loans (${summary.funded}): the figures are noise-level`;
}

export const pct = (share: number): string => `${(share * 100).toFixed(1)}%`;
export const usd = (cents: number): string => formatCents(Math.round(cents));

/** The summary's lines as [label, value] pairs (also the rows of the side-by-side table). */
export function summaryLines(summary: BacktestSummary): Array<[string, string]> {
  const refusals = Object.entries(summary.guardRefusals)
    .map(([code, count]) => `${code} ${count}`)
    .join(', ');
  return [
    ['net annualized return (on capital)', pct(summary.netAnnualizedReturn)],
    ['requests', String(summary.requests)],
    ['offers', String(summary.offers)],
    ['loans funded', String(summary.funded)],
    ['capital deployed', usd(summary.deployedCents)],
    ['interest earned', usd(summary.interestCents)],
    ['losses (written off)', usd(summary.lossCents)],
    ['recoveries', usd(summary.recoveryCents)],
    ['data spend', summary.subscriptionCents > 0 ? `${usd(summary.dataSpendCents)} (subscriptions ${usd(summary.subscriptionCents)})` : usd(summary.dataSpendCents)],
    ['net', usd(summary.netCents)],
    ['default rate', pct(summary.defaultRate)],
    ['return on deployed (annualized)', pct(summary.returnOnDeployed)],
    ['capital utilization', pct(summary.capitalUtilization)],
    ['average idle cash', usd(summary.averageIdleCents)],
    ['max drawdown', pct(summary.maxDrawdown)],
    ['largest exposure', usd(summary.largestExposureCents)],
    ['largest borrower exposure', usd(summary.largestBorrowerExposureCents)],
    ['final balance', usd(summary.finalBalanceCents)],
    ['still open (current loans)', usd(summary.openCents)],
    ['won but unfundable (balance)', String(summary.fundingFailures)],
    ['guard refusals', refusals === '' ? 'none' : refusals],
  ];
}

