/**
 * A waiting proposal whose loan request has closed can never be placed: approving it would only
 * end as "not placed". So it expires as soon as the open list no longer shows its request, and
 * says why, instead of inviting a person to approve it. The reading chosen (docs/agent-connector.md,
 * "Expiry"): a proposal waits `ops.proposal_expiry_minutes` of real time, a person's minutes,
 * and never longer than its request is open.
 */
import type { AgentContext } from '../operator/agent-context.js';

/** Waiting proposals looked at per pass; more wait for the next one. */
const MAX_LOOKED_AT = 200;

/** Expires the waiting proposals whose request the open list no longer shows; returns how many. */
export async function expireClosedRequests(context: Pick<AgentContext, 'store' | 'client' | 'realClock'>): Promise<number> {
  const { store, client, realClock } = context;
  const waiting = store.proposals.pendingRequests(MAX_LOOKED_AT);
  if (waiting.length === 0) return 0;
  // One read of the list for every waiting proposal (the service has no endpoint for one request).
  const open = new Set<number>();
  for await (const page of client.loanRequestPages()) for (const request of page.items) open.add(request.id);
  let expired = 0;
  for (const { id, loanRequestId } of waiting) {
    if (open.has(loanRequestId)) continue;
    const note = `loan request ${loanRequestId} closed at the marketplace (taken, withdrawn or expired) before anyone approved it`;
    if (store.proposals.expireNow(id, note, realClock.now())) expired += 1;
  }
  return expired;
}
