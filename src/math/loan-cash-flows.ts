/**
 * The cash flows of one loan: equal monthly instalments at its rate, whole cents; interest is the
 * month's rate on the outstanding principal, rounded to the cent, and the rest of an instalment
 * returns principal. The backtest pays its won loans by it at the offered rate (docs/backtesting.md,
 * "The market model"); the cash-flow forecast projects the lender's open loans by it.
 *
 * - `full`: every instalment is paid, or, with a `prepayMonth`, the outstanding principal is
 *   paid off with that month's interest and nothing more is due.
 * - `partial`, final (a default or collection): `repaidCents` come back. Whole instalments are
 *   paid on time; at the first instalment missed the outstanding principal is written off (a
 *   loss, so equity and drawdown see it then), and whatever the borrower still pays after that
 *   (the part of an instalment, collection recoveries) arrives `recoveryDelayMonths` later as a
 *   recovery. interest + recovery − loss = repaid − principal, to the cent. With `missedMonth`
 *   (the recording's `missed_month`) the instalments stop before it: a recovery is not read as
 *   instalments paid, which would make the loan default later than it did.
 * - `partial`, not final (a `current` loan): the repaid cents are instalments (the last one
 *   partial) and the principal left is still open where the recording ends, not lost.
 */
import { monthlyPayment } from './loan-math.js';

export type RepaymentPlan =
  { kind: 'full'; prepayMonth: number | null } | { kind: 'partial'; repaidCents: number; final: boolean; missedMonth?: number };

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
  /** Everything the borrower pays: instalments and the recovery. */
  repaidCents: number;
  instalments: Instalment[];
  /** Principal written off at the first missed instalment, and that month (null when none). */
  lossCents: number;
  lossMonth: number | null;
  /** What a defaulter still pays after the write-off, and the month it arrives (null when none). */
  recoveryCents: number;
  recoveryMonth: number | null;
  /** Principal still outstanding after the last instalment of a `current` loan. */
  openCents: number;
  /** Sum over months outstanding of principal × month, in cent-months (capital-time). */
  capitalCentMonths: number;
}

export function loanCashFlows(
  principalCents: number,
  rate: number,
  terms: number,
  plan: RepaymentPlan,
  recoveryDelayMonths = 0,
): LoanCashFlows {
  const payment = monthlyPayment(principalCents, rate, terms);
  const totalDue = payment * terms;
  const instalments: Instalment[] = [];
  let outstanding = principalCents;
  let capital = 0;
  const pay = (month: number, amount: number, principal: number): void => {
    instalments.push({
      month,
      amountCents: amount,
      interestCents: amount - principal,
      principalCents: principal,
      outstandingBeforeCents: outstanding,
    });
    capital += outstanding;
    outstanding -= principal;
  };
  const interestDue = (): number => Math.round((outstanding * rate) / 12);

  const repaid = plan.kind === 'full' ? totalDue : Math.min(totalDue, Math.max(0, Math.round(plan.repaidCents)));
  const prepayMonth =
    plan.kind === 'full' && plan.prepayMonth !== null && plan.prepayMonth >= 1 && plan.prepayMonth < terms ? plan.prepayMonth : null;
  const final = plan.kind === 'full' || plan.final;
  const missedMonth = plan.kind === 'partial' && final ? plan.missedMonth : undefined;
  const byRepaid = final ? Math.floor(repaid / payment) : terms;
  const fullInstalments = missedMonth === undefined ? byRepaid : Math.min(byRepaid, Math.max(0, missedMonth - 1));
  let left = repaid;
  for (let month = 1; month <= Math.min(terms, fullInstalments) && left > 0; month += 1) {
    if (month === prepayMonth) {
      // Paid off: this month's interest and every cent of principal still owed.
      pay(month, interestDue() + outstanding, outstanding);
      break;
    }
    const amount = Math.min(payment, left);
    // The last full instalment clears whatever principal rounding left over.
    const lastInFull = month === terms && amount === payment;
    pay(month, amount, lastInFull ? outstanding : Math.min(outstanding, Math.max(0, amount - interestDue())));
    left -= amount;
  }
  const received = instalments.reduce((sum, i) => sum + i.amountCents, 0);
  let lossCents = 0;
  let lossMonth: number | null = null;
  let recoveryCents = 0;
  let recoveryMonth: number | null = null;
  if (final && outstanding > 0) {
    lossMonth = Math.min(terms, instalments.length + 1);
    lossCents = outstanding;
    capital += outstanding;
    recoveryCents = repaid - received;
    if (recoveryCents > 0) recoveryMonth = lossMonth + recoveryDelayMonths;
  }
  return {
    monthlyPaymentCents: payment,
    totalDueCents: totalDue,
    repaidCents: received + recoveryCents,
    instalments,
    lossCents,
    lossMonth,
    recoveryCents,
    recoveryMonth,
    openCents: final ? 0 : outstanding,
    capitalCentMonths: capital,
  };
}
