/**
 * What the rest of lendbot takes from the proposals wing besides its attach line
 * (src/daemon/daemon.ts, attachProposals) and `lendbot approve` / `reject`: the agents'
 * get_proposal and list_proposals, the operator API's /api/proposals, and place_offer's way beyond
 * an allowance, all through src/daemon/wing-surfaces.ts, which names this entry once.
 */
import { registerProposalRoutes } from './proposal-routes.js';
import { registerProposalTools } from './proposal-tools.js';
import { proposeForAPerson } from './propose-offer.js';

export const proposalsWing = {
  tools: [registerProposalTools],
  apiRoutes: [registerProposalRoutes],
  beyondAllowance: proposeForAPerson,
} as const;
