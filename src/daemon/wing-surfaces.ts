/**
 * What the wings add to the operator listener, each wing named once here: agent tools, which the
 * daemon's connector and `lendbot mcp` register after their own, API routes, and place_offer's way
 * beyond an allowance. Kept apart from wing-parts.ts, which reading the configuration loads: these
 * load the operator's modules. Deleting a wing's folder, its entries here and there and its attach
 * line removes it (test/layout/*-wing.test.ts); a wing the daemon leaves out (DaemonOverrides) adds
 * no route and no tool, and without the proposals wing an offer beyond an allowance is refused, as
 * if its folder were deleted (test/daemon/wings-left-out-agent.test.ts).
 */
import { registerCalibrationRoutes } from '../calibration/calibration-routes.js';
import { cashFlowWing } from '../cash-flow/cash-flow-wing.js';
import { registerMarketLearningRoutes } from '../market-learning/market-learning-routes.js';
import type { AgentWings } from '../operator/agent-context.js';
import type { ApiRoutes } from '../operator/api/api-deps.js';
import { proposalsWing } from '../proposals/proposals-wing.js';
import { registerRetrainTools } from '../retrain/retrain-tools.js';

/** The wings' agent tools, by the DaemonOverrides key that leaves each wing out. */
const WING_AGENT_TOOLS = {
  retrain: [registerRetrainTools],
  proposals: proposalsWing.tools,
  cashFlow: cashFlowWing.tools,
} as const;

/** The wings' API routes, by the DaemonOverrides key that leaves each wing out. */
const WING_API_ROUTES = {
  proposals: proposalsWing.apiRoutes,
  cashFlow: cashFlowWing.apiRoutes,
  marketLearning: [registerMarketLearningRoutes],
  calibration: [registerCalibrationRoutes],
} as const;

/** Which wings a table's caller leaves out: `false` under a wing's DaemonOverrides key. */
type LeftOut<Table> = { [Wing in keyof Table]?: false };

/** The entries of the wings not left out, in the table's order. */
function attached<Entry>(table: Record<string, readonly Entry[]>, leftOut: Record<string, false | undefined>): Entry[] {
  return Object.entries(table).flatMap(([wing, entries]) => (leftOut[wing] === false ? [] : entries));
}

/**
 * The routes of the wings attached: a wing left out serves none, as if its folder were deleted,
 * so the listener's list of them (GET /api/me, wingRoutes) tells the dashboard which panels to show.
 */
export function wingApiRoutes(leftOut: LeftOut<typeof WING_API_ROUTES>): ApiRoutes[] {
  return attached(WING_API_ROUTES, leftOut);
}

/**
 * The agent tools of the wings attached, and place_offer's way beyond an allowance while the
 * proposals wing is: a wing left out registers no tool, and without proposals an offer beyond
 * the caller's allowance is refused (src/operator/tools/offer-tools.ts), as if the folders were
 * deleted. `lendbot mcp` keeps every wing (`wingAgent({})`).
 */
export function wingAgent(leftOut: LeftOut<typeof WING_AGENT_TOOLS>): AgentWings {
  return {
    tools: attached(WING_AGENT_TOOLS, leftOut),
    beyondAllowance: leftOut.proposals === false ? undefined : proposalsWing.beyondAllowance,
  };
}
