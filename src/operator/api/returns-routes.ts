/** `GET /api/returns`: equity, realised interest and losses over time, and default rates (returns-figures.ts). */
import { ledgerInputFromStore } from '../../ops/equity-now.js';
import { lossRatesFromConfig } from '../../ops/loss-rates-config.js';
import type { OperatorApp } from '../operator-listener.js';
import type { ApiDeps } from './api-deps.js';
import type { ReturnsAnswer } from './api-types.js';
import { originOf } from './book-routes.js';
import { computeReturns } from './returns-figures.js';

export function registerReturnsRoutes(api: OperatorApp, deps: ApiDeps): void {
  const { store, clock, config } = deps.context;
  const rates = lossRatesFromConfig(config);
  api.get('/returns', async (_request, reply) => {
    const offerCreatedAt = (loanRequestId: number) => store.offers.getByRequest(loanRequestId)?.createdAt;
    const nowMs = clock.now();
    const answer: ReturnsAnswer = computeReturns({ ...ledgerInputFromStore(store, nowMs), originOf: (loan) => originOf(loan, offerCreatedAt) }, nowMs, rates);
    return reply.header('cache-control', 'no-store').send(answer);
  });
}
