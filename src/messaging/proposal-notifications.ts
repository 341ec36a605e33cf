/**
 * Tells each offer an agent proposed (src/proposals/), once, while it waits for a
 * person: with the link that opens it on the dashboard (where the operator signs in and
 * approves; opening the link approves nothing) and the `lendbot approve` command. A cursor in the
 * state table keeps the last proposal told, so neither the next check nor a restart tells one
 * again; a proposal decided or expired before the check is not told at all.
 */
import type { Clock } from '../clock/clock.js';
import { proposalLink, type Store, type StoredProposal } from '../store/index.js';
import type { NotificationEvent } from '../domain/index.js';

const NOTIFY_PROPOSALS_CURSOR_KEY = 'notify_proposals_cursor';

/** At most this many per check; the rest follow at the next one. */
const PER_CHECK = 100;

export async function notifyProposals(
  store: Store,
  clock: Clock,
  send: (event: NotificationEvent, data: Record<string, unknown>) => Promise<void>,
): Promise<void> {
  const cursor = Number(store.state.get(NOTIFY_PROPOSALS_CURSOR_KEY) ?? '0');
  for (const proposal of store.proposals.after(cursor, PER_CHECK)) {
    if (proposal.status === 'pending') await send('offer_proposed', proposalNotice(store, proposal));
    // Moved after each one: a crash in the middle repeats at most one notification.
    store.state.set(NOTIFY_PROPOSALS_CURSOR_KEY, String(proposal.id), clock.now());
  }
}

function proposalNotice(store: Store, proposal: StoredProposal): Record<string, unknown> {
  const why = (proposal.explanation as { why?: unknown } | null)?.why;
  return {
    agent: `agent:${proposal.tokenName}`,
    loan_request_id: proposal.loanRequestId,
    proposal_id: proposal.id,
    rate: proposal.rate,
    amount_cents: proposal.amountCents,
    risk_level: proposal.riskLevel,
    automate_fund: proposal.automateFund,
    expires_at: proposal.expiresAt,
    why_approval: typeof why === 'string' ? why : null,
    review_url: proposalLink(store.state, proposal.id) ?? null,
    approve_command: `lendbot approve ${proposal.id}`,
  };
}
