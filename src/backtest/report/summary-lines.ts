/** The summary of a backtest as labelled lines, shared by the terminal and HTML reports. */
import { formatCents } from '../../service/index.js';
import type { BacktestSummary } from '../backtest-result.js';

export const pct = (share: number): string => `${(share * 100).toFixed(1)}%`;
export const usd = (cents: number): string => formatCents(Math.round(cents));

/** The summary's lines as [label, value] pairs (also the rows of the side-by-side table). */
export function summaryLines(summary: BacktestSummary): Array<[string, string]> {
  const refusals = Object.entries(summary.guardRefusals)
    .map(([code, count]) => `${code} ${count}`)
    .join(', ');
  return [
    ['requests', String(summary.requests)],
    ['offers', String(summary.offers)],
    ['loans funded', String(summary.funded)],
    ['capital deployed', usd(summary.deployedCents)],
    ['interest earned', usd(summary.interestCents)],
    ['losses', usd(summary.lossCents)],
    ['data spend', usd(summary.dataSpendCents)],
    ['net', usd(summary.netCents)],
    ['default rate', pct(summary.defaultRate)],
    ['net annualized return', pct(summary.netAnnualizedReturn)],
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

