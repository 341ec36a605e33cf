/**
 * `GET /api/cash-flow`: the default-adjusted 12-month cash-flow forecast with its reinvestment
 * projection, and idle cash (now, over time, why, the alert), as cash-flow-view.ts shapes them;
 * the agent connector's get_cash_flow_forecast answers with the same object. Served under the
 * operator API's prefix and sign-in, after its own routes (src/daemon/wing-surfaces.ts, WING_API_ROUTES).
 */
import type { ApiDeps } from '../operator/api/api-deps.js';
import type { OperatorApp } from '../operator/operator-listener.js';
import { cashFlowAnswer } from './cash-flow-view.js';

export function registerCashFlowRoutes(api: OperatorApp, { context }: ApiDeps): void {
  api.get('/cash-flow', async (_request, reply) => {
    const body = cashFlowAnswer(context.store, context.clock.now(), context.limits(), context.dryRun);
    return reply.header('cache-control', 'no-store').send(body);
  });
}
