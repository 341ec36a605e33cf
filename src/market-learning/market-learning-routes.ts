/**
 * `GET /api/market-learning`: each learning strategy's learned market response (pricing.learning)
 * against its prior, for the dashboard's panel (market-learning.js); the same figures as `lendbot status`.
 * The market-learning wing's route (src/daemon/wing-surfaces.ts).
 */
import { marketLearningJson, marketLearningStatus } from '../ops/market-learning-status.js';
import type { ApiDeps } from '../operator/api/api-deps.js';
import type { OperatorApp } from '../operator/operator-listener.js';

export function registerMarketLearningRoutes(api: OperatorApp, deps: ApiDeps): void {
  const { store } = deps.context;
  api.get('/market-learning', async (_request, reply) => {
    return reply.header('cache-control', 'no-store').send({ strategies: marketLearningJson(marketLearningStatus(store)) });
  });
}
