/**
 * `GET /api/cash-flow`: the default-adjusted 12-month cash-flow forecast with its reinvestment
 * projection, and idle cash (now, over time, why, the alert), as src/ops/cash-flow-view.ts shapes
 * them; the agent connector's get_cash_flow_forecast answers with the same object.
 */
import { cashFlowAnswer } from '../../ops/cash-flow-view.js';
import type { OperatorApp } from '../operator-listener.js';
import type { ApiDeps } from './api-deps.js';

export function registerCashFlowRoutes(api: OperatorApp, deps: ApiDeps): void {
  const { context } = deps;
  api.get('/cash-flow', async (_request, reply) => {
    const body = cashFlowAnswer(context.store, context.clock.now(), context.limits(), context.dryRun);
    return reply.header('cache-control', 'no-store').send(body);
  });
}
