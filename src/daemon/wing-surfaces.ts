/**
 * What the wings add to the operator listener, each wing named once here: agent tools, which the
 * daemon's connector and `lendbot mcp` register after their own, API routes, and place_offer's way
 * beyond an allowance. Kept apart from wing-parts.ts, which reading the configuration loads: these
 * load the operator's modules. Deleting a wing's folder, its entries here and there and its attach
 * line removes it (test/layout/*-wing.test.ts).
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
export const WING_API_ROUTES: readonly ApiRoutes[] = [
  ...proposalsWing.apiRoutes,
  ...cashFlowWing.apiRoutes,
  registerMarketLearningRoutes,
  registerCalibrationRoutes,
];
