/**
 * The book: `GET /api/offers` (newest first, by state as every surface shows it, a page at a
 * time: store/offer-view.ts) and `GET /api/loans`
 * (every synced loan with its payments summed). Both tables hold one row per offer or loan of
 * this lender: small next to the decisions.
 */
import { z } from 'zod';
import { offerViewQuery } from '../../risk/index.js';
import { OFFER_VIEW_STATES, type OfferView, type StoredLoan, type LoanPaymentState } from '../../store/index.js';
import type { OperatorApp } from '../operator-listener.js';
import { parseOr400, type ApiDeps } from './api-deps.js';
import type { LoanPayments, LoanRow, LoansAnswer, OfferRow, OffersAnswer } from './api-types.js';

const offersQuery = z.strictObject({
  state: z.enum(OFFER_VIEW_STATES).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(200),
  before: z.coerce.number().int().positive().optional(),
});

function offerRow(offer: OfferView): OfferRow {
  return {
    id: offer.id,
    loanRequestId: offer.loanRequestId,
    rate: offer.rate,
    automateFund: offer.automateFund,
    totalAmountCents: offer.totalAmountCents,
    riskLevel: offer.riskLevel,
    borrowerId: offer.borrowerId,
    state: offer.state,
    reserving: offer.reserving,
    serviceOfferId: offer.serviceOfferId,
    serviceText: offer.serviceText,
    createdAt: offer.createdAt,
    updatedAt: offer.updatedAt,
    dryRun: offer.dryRun,
  };
}

const NO_PAYMENTS: LoanPayments = {
  payments: 0,
  paid: 0,
  paidCents: 0,
  late: 0,
  missed: 0,
  maxDelayedDays: 0,
  lateFeesChargedCents: 0,
  lastDueDate: null,
};

/** When a loan started: its own creation date, else when our offer on its request was made. */
export function originOf(loan: StoredLoan, offerCreatedAt: (loanRequestId: number) => string | undefined): string | null {
  const created = loan.loan.created_date;
  if (typeof created === 'string' && !Number.isNaN(Date.parse(created))) return new Date(Date.parse(created)).toISOString();
  return loan.loanRequestId === null ? null : (offerCreatedAt(loan.loanRequestId) ?? null);
}

function loanRow(loan: StoredLoan, payments: LoanPaymentState | undefined, originatedAt: string | null): LoanRow {
  // The stored loan's fields in the store's order, without the service's raw loan.
  const { loan: _raw, ...stored } = loan;
  return {
    ...stored,
    originatedAt,
    payments: payments === undefined ? NO_PAYMENTS : { ...NO_PAYMENTS, ...withoutLoanId(payments) },
  };
}

/** The API's names: the fees are the late and pay-later fees charged on the payments, received or not. */
function withoutLoanId(state: LoanPaymentState): LoanPayments {
  const { loanId: _loanId, feesCents, ...rest } = state;
  return { ...rest, lateFeesChargedCents: feesCents };
}

export function registerBookRoutes(api: OperatorApp, deps: ApiDeps): void {
  const { store, clock } = deps.context;

  api.get('/offers', async (request, reply) => {
    const query = parseOr400(offersQuery, request.query, reply);
    if (query === undefined) return reply;
    const page = { limit: query.limit + 1, states: query.state === undefined ? undefined : [query.state], beforeId: query.before };
    const rows = store.offers.views(page, offerViewQuery(clock.now(), deps.context.limits()));
    const offers = rows.slice(0, query.limit).map(offerRow);
    const answer: OffersAnswer = { offers, nextBefore: rows.length > query.limit ? (offers.at(-1)?.id ?? null) : null };
    return reply.header('cache-control', 'no-store').send(answer);
  });

  api.get('/loans', async (_request, reply) => {
    const states = new Map(store.payments.states().map((state) => [state.loanId, state]));
    const offerCreatedAt = (loanRequestId: number) => store.offers.getByRequest(loanRequestId)?.createdAt;
    const loans = store.account
      .loans()
      .map((loan) => loanRow(loan, states.get(loan.id), originOf(loan, offerCreatedAt)))
      .sort((a, b) => (b.originatedAt ?? '').localeCompare(a.originatedAt ?? '') || b.id - a.id);
    const answer: LoansAnswer = { loans };
    return reply.header('cache-control', 'no-store').send(answer);
  });
}
