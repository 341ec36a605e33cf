/**
 * What the rest of lendbot takes from the cash-flow wing besides its attach line (src/daemon/daemon.ts,
 * attachCashFlow): the agents' get_cash_flow_forecast and the API's `GET /api/cash-flow`, both
 * through src/daemon/wing-surfaces.ts, which names this entry once. It has no config section and
 * no doctor check, so src/daemon/wing-parts.ts does not name it.
 */
import { registerCashFlowRoutes } from './cash-flow-routes.js';
import { registerCashFlowTools } from './cash-flow-tools.js';

export const cashFlowWing = {
  tools: [registerCashFlowTools],
  apiRoutes: [registerCashFlowRoutes],
} as const;
