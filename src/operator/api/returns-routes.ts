/** `GET /api/returns`: equity, realised interest and losses over time, and default rates (returns-figures.ts). */
import type { Store } from '../../store/index.js';
import type { OperatorApp } from '../operator-listener.js';
import type { ApiDeps } from './api-deps.js';
import type { ReturnsAnswer } from './api-types.js';
import { originOf } from './book-routes.js';
import { computeReturns } from './returns-figures.js';

/** The returns from the store as of `nowMs` (also the digest's interest and losses). */
export function returnsFromStore(store: Store, nowMs: number): ReturnsAnswer {
  const offerCreatedAt = (loanRequestId: number) => store.offers.getByRequest(loanRequestId)?.createdAt;
  return computeReturns(
    {
      transfers: store.account.transferGroups(),
      loans: store.account.loans(),
      paymentsOf: (loanId) => store.payments.forLoan(loanId),
      originOf: (loan) => originOf(loan, offerCreatedAt),
    },
    new Date(nowMs).toISOString(),
  );
}

export function registerReturnsRoutes(api: OperatorApp, deps: ApiDeps): void {
  const { store, clock } = deps.context;
  api.get('/returns', async (_request, reply) => {
    const answer: ReturnsAnswer = returnsFromStore(store, clock.now());
    return reply.header('cache-control', 'no-store').send(answer);
  });
}
