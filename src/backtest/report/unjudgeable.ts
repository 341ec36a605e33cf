/**
 * A run none of whose offers the recording can judge: every offer was on a request without an
 * outcome (a daemon's own export knows only its own loans' outcomes, a dry run's none). Its 0 %
 * is not a result, so every report names it "cannot be judged" instead of comparing it
 * (docs/backtesting.md, "What the recording could not judge").
 */
import type { BacktestSummary } from '../backtest-result.js';

type OfferCounts = Pick<BacktestSummary, 'offers' | 'unjudgedOffers'>;

/** Whether the run made offers and the recording could judge none of them. */
export function cannotBeJudged(summary: OfferCounts): boolean {
  return summary.offers > 0 && summary.unjudgedOffers === summary.offers;
}

/** Why, in words: "all 96 of its offers were on requests the recording has no outcome for, ...". */
export function cannotBeJudgedReason(summary: OfferCounts): string {
  return (
    `all ${summary.offers.toLocaleString('en-US')} of its offers were on requests the recording has no outcome for, ` +
    'so nothing says whether a borrower would have taken one or how the loan would have repaid'
  );
}

/** The verdict's clause for runs that cannot be judged: "naive cannot be judged: all 244 of its offers ...", or for several "balanced and naive ...: all their offers (96 and 244) ...". */
export function cannotBeJudgedClause(runs: ReadonlyArray<{ name: string; summary: OfferCounts }>): string {
  const [only] = runs;
  if (runs.length === 1 && only) return `${only.name} ${CANNOT_BE_JUDGED}: ${cannotBeJudgedReason(only.summary)}`;
  const and = (items: readonly string[]): string => `${items.slice(0, -1).join(', ')} and ${items.at(-1) ?? ''}`;
  return (
    `${and(runs.map((r) => r.name))} ${CANNOT_BE_JUDGED}: all their offers (${and(runs.map((r) => r.summary.offers.toLocaleString('en-US')))}) ` +
    'were on requests the recording has no outcome for, so nothing says whether a borrower would have taken one or how the loan would have repaid'
  );
}

/** What to do about it, for the verdict. */
export const JUDGEABLE_RECORDING_HINT =
  "a daemon's own export knows only the outcomes of its own loans, a dry run's none: backtest a recording with outcomes, such as one from lendbot sandbox export";

/** The value a report shows in place of a return it cannot judge. */
export const CANNOT_BE_JUDGED = 'cannot be judged';
