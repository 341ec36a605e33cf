/** `GET /api/returns`: equity, realised interest and losses over time, and default rates (returns-figures.ts). */
import type { LossRates } from '../../money/equity.js';
import { ledgerInputFromStore } from '../../money/equity-now.js';
import { lossRatesFromConfig } from '../../money/loss-rates-config.js';
import type { Store } from '../../store/index.js';
import type { OperatorApp } from '../operator-listener.js';
import type { ApiDeps } from './api-deps.js';
import type { ReturnsAnswer } from './api-types.js';
import { originOf } from './book-routes.js';
import { computeReturns } from './returns-figures.js';

/** The returns from the store as of `nowMs` (also the digest's interest and losses). */
export function returnsFromStore(store: Store, nowMs: number, rates?: LossRates): ReturnsAnswer {
  const offerCreatedAt = (loanRequestId: number) => store.offers.getByRequest(loanRequestId)?.createdAt;
  return computeReturns({ ...ledgerInputFromStore(store, nowMs), originOf: (loan) => originOf(loan, offerCreatedAt) }, nowMs, rates);
}

export function registerReturnsRoutes(api: OperatorApp, deps: ApiDeps): void {
  const { store, clock, config } = deps.context;
  const rates = lossRatesFromConfig(config);
  api.get('/returns', async (_request, reply) => {
    const answer: ReturnsAnswer = returnsFromStore(store, clock.now(), rates);
    return reply.header('cache-control', 'no-store').send(answer);
  });
}
