/**
 * What the wings add to the operator listener, each wing named once here: agent tools, which the
 * daemon's connector and `lendbot mcp` register after their own, API routes, and place_offer's way
 * beyond an allowance. Kept apart from wing-parts.ts, which reading the configuration loads: these
 * load the operator's modules. Deleting a wing's folder, its entries here and there and its attach
 * line removes it (test/layout/*-wing.test.ts); a wing the daemon leaves out (DaemonOverrides) adds no route.
 */
import { registerCalibrationRoutes } from '../calibration/calibration-routes.js';
import { cashFlowWing } from '../cash-flow/cash-flow-wing.js';
import { registerMarketLearningRoutes } from '../market-learning/market-learning-routes.js';
import type { AgentWings } from '../operator/agent-context.js';
import type { ApiRoutes } from '../operator/api/api-deps.js';
import { proposalsWing } from '../proposals/proposals-wing.js';
import { registerRetrainTools } from '../retrain/retrain-tools.js';

export const WING_AGENT: AgentWings = {
  tools: [registerRetrainTools, ...proposalsWing.tools, ...cashFlowWing.tools],
  beyondAllowance: proposalsWing.beyondAllowance,
};
/** The wings' API routes, by the DaemonOverrides key that leaves each wing out. */
const WING_API_ROUTES = {
  proposals: proposalsWing.apiRoutes,
  cashFlow: cashFlowWing.apiRoutes,
  marketLearning: [registerMarketLearningRoutes],
  calibration: [registerCalibrationRoutes],
} as const;

/**
 * The routes of the wings attached: a wing left out serves none, as if its folder were deleted,
 * so the listener's list of them (GET /api/me, wingRoutes) tells the dashboard which panels to show.
 */
export function wingApiRoutes(leftOut: { [Wing in keyof typeof WING_API_ROUTES]?: false }): ApiRoutes[] {
  return Object.entries(WING_API_ROUTES).flatMap(([wing, routes]) =>
    leftOut[wing as keyof typeof WING_API_ROUTES] === false ? [] : routes,
  );
}
