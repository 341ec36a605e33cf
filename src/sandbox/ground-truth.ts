/**
 * What really happened to a loan request, and what would have: the hidden repayment chance, the
 * planned outcome, who funded it and at what rate, and the outcome in the recording format
 * (docs/recording-format.md), so backtests can be scored against it.
 */
import type { Outcome } from '../recording/index.js';
import { INVESTOR } from './loan-servicing.js';
import type { Market } from './market.js';
import type { LoanRequestStatus, LoanStatus } from './market-types.js';
import { roundTo } from './random.js';
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
    return {
      status: 'unfunded',
      best_competing_rate: request.bestCompetingRate,
      repaid_fraction: 0,
      ...(closed ? { resolved_at: isoTime(request.statusChangedMs) } : {}),
    };
  }
  const due = market.loanBook.scheduledTotal(loan.id);
  const repaid = due === 0 ? 0 : repaidOf(loan, due) / due;
  const status = loan.status === 'pending' || loan.status === 'funded' ? 'current' : loan.status;
  return {
    status,
    funded_rate: loan.rate,
    best_competing_rate: request.bestCompetingRate,
    repaid_fraction: roundTo(Math.max(0, repaid), 4),
    ...(loan.resolvedMs === null ? {} : { resolved_at: isoTime(loan.resolvedMs) }),
  };
}

// What the lender received of the scheduled amount: payments made (late fees excluded) plus what
// collection recovered, net of the agency's fee.
function repaidOf(loan: { payments: Array<{ status: string; amountCents: number }>; collectedCents: number; collectionFeeCents: number }, due: number): number {
  const paid = loan.payments.filter((p) => p.status === 'paid').reduce((sum, p) => sum + p.amountCents, 0);
  return Math.min(due, paid + loan.collectedCents - loan.collectionFeeCents);
}
