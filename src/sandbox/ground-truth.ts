/**
 * What really happened to a loan request, and what would have: the hidden repayment chance, the
 * planned outcome, who funded it and at what rate, the borrower's reservation rate (the highest
 * rate it would have accepted from anyone), and the outcome in the recording format
 * (docs/recording-format.md), so backtests can be scored against it. The hidden truth is drawn
 * up front and does not depend on who funds the loan, so a request nobody funded still says how
 * its borrower would have repaid (`if_funded`).
 */
import type { Outcome } from '../recording/index.js';
import { paymentSchedule } from './amortization.js';
import { INVESTOR } from './loan-servicing.js';
import { COLLECTION_FEE_SHARE } from './market-events.js';
import type { Market } from './market.js';
import type { LoanRequestRecord, LoanRequestStatus, LoanStatus } from './market-types.js';
import { totalCents } from './offer-rules.js';
import { roundTo } from './random.js';
import { REFERENCE_RATE } from './repayment-model.js';
import { isoTime } from './resource-views.js';

export interface GroundTruth {
  loanRequestId: number;
  requestStatus: LoanRequestStatus;
  state: string;
  zipCode: string;
  invited: boolean;
  hasFundingResource: boolean;
  /** Hidden chance of repaying in full. */
  repayProbability: number;
  /** The part of the logit observable features explain; `noise` is the rest. */
  observableLogit: number;
  noise: number;
  /** The month of the first missed payment if funded, or null: the loan would be repaid. */
  missedMonth: number | null;
  recoveryShare: number;
  /** The highest rate the borrower accepts from any lender (0: none), by the shape's rule. */
  reservationRate: number;
  /** The lowest rate the borrower walked away from as too expensive, or null. */
  refusedRate: number | null;
  plannedCompetitorOffers: number;
  bestCompetingRate: number | null;
  fundedBy: 'investor' | 'competitor' | null;
  loanId: number | null;
  loanStatus: LoanStatus | null;
  outcome: Outcome;
}

/** The ground truth of a request, or undefined when there is no such request. */
export function groundTruthOf(market: Market, loanRequestId: number): GroundTruth | undefined {
  const request = market.requests.get(loanRequestId);
  if (!request) return undefined;
  const loan = request.loanId === null ? undefined : market.loanBook.loans.get(request.loanId);
  return {
    loanRequestId,
    requestStatus: request.status,
    state: request.borrower.state,
    zipCode: request.borrower.zipCode,
    invited: request.borrower.invited,
    hasFundingResource: request.borrower.hasFundingResource,
    repayProbability: request.truth.repayProbability,
    observableLogit: request.truth.observableLogit,
    noise: request.truth.noise,
    missedMonth: request.truth.missedMonth,
    recoveryShare: request.truth.recoveryShare,
    reservationRate: request.reservationRate,
    refusedRate: request.refusedRate,
    plannedCompetitorOffers: request.plannedCompetitorOffers,
    bestCompetingRate: request.bestCompetingRate,
    fundedBy: loan ? (loan.lender === INVESTOR ? 'investor' : 'competitor') : null,
    loanId: loan?.id ?? null,
    loanStatus: loan?.status ?? null,
    outcome: outcomeOf(market, loanRequestId),
  };
}

/** The outcome in the recording format; `current` while a funded loan is still running. */
export function outcomeOf(market: Market, loanRequestId: number): Outcome {
  const request = market.requests.get(loanRequestId);
  if (!request) throw new RangeError(`no loan request ${loanRequestId}`);
  const loan = request.loanId === null ? undefined : market.loanBook.loans.get(request.loanId);
  if (!loan) {
    const closed = request.status === 'canceled' || request.status === 'expired';
    // A canceled request could not have been funded, nor one whose borrower has no funding resource.
    const fundable = request.status !== 'canceled' && request.borrower.hasFundingResource;
    return {
      status: 'unfunded',
      best_competing_rate: request.bestCompetingRate,
      reservation_rate: request.reservationRate,
      repaid_fraction: 0,
      ...(closed ? { resolved_at: isoTime(request.statusChangedMs) } : {}),
      ...(fundable ? { if_funded: ifFunded(request) } : {}),
    };
  }
  const due = market.loanBook.scheduledTotal(loan.id);
  const repaid = due === 0 ? 0 : repaidOf(loan, due) / due;
  const status = loan.status === 'pending' || loan.status === 'funded' ? 'current' : loan.status;
  return {
    status,
    funded_rate: loan.rate,
    best_competing_rate: request.bestCompetingRate,
    reservation_rate: request.reservationRate,
    repaid_fraction: roundTo(Math.max(0, repaid), 4),
    // The loan missed it: a backtest writes the loan off there, not after the recovery read as instalments.
    ...((status === 'collection' || status === 'default') && request.truth.missedMonth !== null
      ? { missed_month: request.truth.missedMonth }
      : {}),
    ...(loan.resolvedMs === null ? {} : { resolved_at: isoTime(loan.resolvedMs) }),
  };
}

/**
 * How the borrower would have repaid a loan nobody made: in full, or the instalments before the
 * first missed one plus what collection recovers of the rest, net of the agency's fee, as a share
 * of the scheduled total at REFERENCE_RATE (with equal instalments the share barely depends on the
 * rate). Computed as loan servicing pays a real loan: at a real loan's rate it equals its repaid_fraction.
 */
export function ifFunded(
  request: LoanRequestRecord,
  rate = REFERENCE_RATE,
): { status: 'completed' | 'default'; repaid_fraction: number; missed_month?: number } {
  const { missedMonth, recoveryShare } = request.truth;
  if (missedMonth === null) return { status: 'completed', repaid_fraction: 1 };
  const schedule = paymentSchedule(totalCents(request), rate, request.loanTerms);
  const due = schedule.reduce((sum, amount) => sum + amount, 0);
  const paid = schedule.slice(0, missedMonth - 1).reduce((sum, amount) => sum + amount, 0);
  const recovered = Math.round((due - paid) * recoveryShare);
  const net = paid + recovered - Math.round(recovered * COLLECTION_FEE_SHARE);
  return { status: 'default', repaid_fraction: due === 0 ? 0 : roundTo(Math.min(1, net / due), 4), missed_month: missedMonth };
}

// What the lender received of the scheduled amount: payments made (late fees excluded) plus what
// collection recovered, net of the agency's fee.
function repaidOf(
  loan: { payments: Array<{ status: string; amountCents: number }>; collectedCents: number; collectionFeeCents: number },
  due: number,
): number {
  const paid = loan.payments.filter((p) => p.status === 'paid').reduce((sum, p) => sum + p.amountCents, 0);
  return Math.min(due, paid + loan.collectedCents - loan.collectionFeeCents);
}
