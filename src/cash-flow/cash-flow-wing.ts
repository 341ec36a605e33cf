/**
 * What the rest of lendbot takes from the cash-flow wing besides its attach line (src/daemon/daemon.ts,
 * attachCashFlow): the agents' get_cash_flow_forecast and the API's `GET /api/cash-flow`, both
 * through src/daemon/wing-parts.ts, which names this entry once.
 */
import { registerCashFlowRoutes } from './cash-flow-routes.js';
import { registerCashFlowTools } from './cash-flow-tools.js';

export const cashFlowWing = {
  config: {},
  checks: [],
  tools: [registerCashFlowTools],
  routes: [registerCashFlowRoutes],
} as const;
