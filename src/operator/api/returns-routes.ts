/** `GET /api/returns`: equity, realised interest and losses over time, and default rates (returns-figures.ts). */
import type { OperatorApp } from '../operator-listener.js';
import type { ApiDeps } from './api-deps.js';
import type { ReturnsAnswer } from './api-types.js';
import { originOf } from './book-routes.js';
import { computeReturns } from './returns-figures.js';

export function registerReturnsRoutes(api: OperatorApp, deps: ApiDeps): void {
  const { store, clock } = deps.context;
  api.get('/returns', async (_request, reply) => {
    const offerCreatedAt = (loanRequestId: number) => store.offers.getByRequest(loanRequestId)?.createdAt;
    const answer: ReturnsAnswer = computeReturns(
      {
        transfers: store.account.transferGroups(),
        loans: store.account.loans(),
        paymentsOf: (loanId) => store.payments.forLoan(loanId),
        originOf: (loan) => originOf(loan, offerCreatedAt),
      },
      new Date(clock.now()).toISOString(),
    );
    return reply.header('cache-control', 'no-store').send(answer);
  });
}
