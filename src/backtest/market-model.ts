/**
 * The market model of a backtest (docs/backtesting.md): what becomes of an offer the strategy
 * made, given what the recording says happened to the request. It is deliberately simple and
 * every assumption the recording cannot answer is a setting:
 *
 * - An offer wins when its rate is at or below the best competing rate (ties go to us: the
 *   borrower gains nothing by refusing). Unknown competition falls back to the rate the loan was
 *   funded at, then to `unknownCompetition`.
 * - A request that nobody funded (`unfunded`) is never funded in a backtest either: the recording
 *   cannot say how that borrower would have repaid.
 * - A won loan pays equal monthly instalments at the OFFERED rate over `loan_terms` months;
 *   `repaid_fraction` of the total due comes back as whole instalments (the last one partial),
 *   the rest is lost on the due date of the first instalment not paid in full. A `current` loan
 *   stops paying where the recording ends and its remaining principal stays open, not lost.
 */
import { monthlyPayment } from '../engine/index.js';
import type { RecordingLine } from '../recording/index.js';

export interface MarketAssumptions {
  /** Competition when the recording gives neither best_competing_rate nor funded_rate. */
  unknownCompetition: 'win' | 'lose' | number;
  /** Repaid fraction of a completed/default/collection loan whose recording omits it. */
  missingRepaidFraction: { completed: number; default: number; collection: number; current: number };
  /** Requests without an outcome: 'lose' (default; nothing is known) or a repaid fraction to assume. */
  noOutcome: 'lose' | number;
  /** Time from the offer to the borrower's choice (acceptance and funding, or rejection). */
  decisionDelayMs: number;
  /**
   * false: nothing is ever accepted and offers hold until they expire, exactly as in a dry run
   * (for comparing a backtest with a dry-run session request by request).
   */
  settle: boolean;
}

export const DEFAULT_MARKET: MarketAssumptions = {
  unknownCompetition: 'win',
  missingRepaidFraction: { completed: 1, default: 0, collection: 0, current: 0 },
  noOutcome: 'lose',
  decisionDelayMs: 24 * 3_600_000,
  settle: true,
};

/** What the market did with one offer. */
export type MarketVerdict =
  | { won: true; repaidFraction: number; final: boolean }
  | { won: false; reason: 'outbid' | 'unfunded' | 'no_outcome' };

/** Whether an offer at `rate` on the recorded request wins, and how the loan then repays. */
export function judgeOffer(line: RecordingLine, rate: number, market: MarketAssumptions): MarketVerdict {
  const outcome = line.outcome;
  if (!outcome) {
    return market.noOutcome === 'lose' ? { won: false, reason: 'no_outcome' } : { won: true, repaidFraction: market.noOutcome, final: true };
  }
  if (outcome.status === 'unfunded') return { won: false, reason: 'unfunded' };
  const competing = outcome.best_competing_rate !== undefined ? outcome.best_competing_rate : (outcome.funded_rate ?? market.unknownCompetition);
  // null: nobody else offered, so ours is the only offer.
  const won = competing === null || competing === 'win' || (competing !== 'lose' && rate <= competing);
  if (!won) return { won: false, reason: 'outbid' };
  const repaidFraction = outcome.repaid_fraction ?? market.missingRepaidFraction[outcome.status];
  return { won: true, repaidFraction, final: outcome.status !== 'current' };
}

/** One instalment actually received. */
export interface Instalment {
  /** 1-based month after funding. */
  month: number;
  amountCents: number;
  interestCents: number;
  principalCents: number;
  /** Principal outstanding before this instalment (for capital-time). */
  outstandingBeforeCents: number;
}

export interface LoanCashFlows {
  monthlyPaymentCents: number;
  totalDueCents: number;
  repaidCents: number;
  instalments: Instalment[];
  /** Principal never returned, and the month it is written off (null when none is lost). */
  lossCents: number;
  lossMonth: number | null;
  /** Principal still outstanding after the last instalment of a `current` loan. */
  openCents: number;
  /** Sum over months outstanding of principal × month, in cent-months (capital-time). */
  capitalCentMonths: number;
}

/**
 * The cash flows of a loan of `principalCents` at `rate` over `terms` months of which
 * `repaidFraction` of the total due is repaid. Interest is the month's rate on the outstanding
 * principal, rounded to the cent; what an instalment pays beyond it returns principal.
 */
export function loanCashFlows(principalCents: number, rate: number, terms: number, repaidFraction: number, final: boolean): LoanCashFlows {
  const payment = monthlyPayment(principalCents, rate, terms);
  const totalDue = payment * terms;
  const repaid = Math.round(Math.min(1, Math.max(0, repaidFraction)) * totalDue);
  const instalments: Instalment[] = [];
  let outstanding = principalCents;
  let left = repaid;
  let capital = 0;
  for (let month = 1; month <= terms && left > 0; month += 1) {
    const amount = Math.min(payment, left);
    const interestDue = Math.round((outstanding * rate) / 12);
    // The last full instalment clears whatever principal rounding left over.
    const lastInFull = month === terms && amount === payment;
    const principal = lastInFull ? outstanding : Math.min(outstanding, Math.max(0, amount - interestDue));
    instalments.push({ month, amountCents: amount, interestCents: amount - principal, principalCents: principal, outstandingBeforeCents: outstanding });
    capital += outstanding;
    outstanding -= principal;
    left -= amount;
  }
  const paidMonths = instalments.length;
  const shortfall = repaid < totalDue;
  const lossMonth = final && shortfall && outstanding > 0 ? Math.min(terms, paidMonths + (instalments.at(-1)?.amountCents === payment ? 1 : 0)) || 1 : null;
  // Outstanding principal counts as capital until it is written off (the loss month) or, for a
  // loan still running, for the months paid so far.
  if (lossMonth !== null) capital += outstanding * Math.max(0, lossMonth - paidMonths);
  return {
    monthlyPaymentCents: payment,
    totalDueCents: totalDue,
    repaidCents: repaid,
    instalments,
    lossCents: lossMonth === null ? 0 : outstanding,
    lossMonth,
    openCents: final ? 0 : outstanding,
    capitalCentMonths: capital,
  };
}

/** `ms` moved on by `months` calendar months (UTC), the day clamped to the month's end. */
export function addMonthsUtc(ms: number, months: number): number {
  const date = new Date(ms);
  const target = new Date(ms);
  target.setUTCDate(1);
  target.setUTCMonth(date.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(date.getUTCDate(), lastDay));
  return target.getTime();
}
