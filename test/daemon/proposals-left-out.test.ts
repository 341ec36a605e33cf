/**
 * The agents' proposals are a wing (issue 38, item 2): the daemon decides and places with it left
 * out. Both runs below approve an agent's proposal on an open request the daemon has not seen;
 * the second leaves the wing unattached (DaemonOverrides.proposals = false, what deleting its
 * attach line in src/daemon/daemon.ts does). Nothing places the approved proposal then, and the
 * daemon still turns a webhook and a poll into guarded offers.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock/clock.js';
import { parseCents } from '../../src/domain/index.js';
import { approveProposal } from '../../src/proposals/index.js';
import { offerHookedAndPolled, startDaemonHarness, waitFor, type DaemonHarness } from './daemon-harness.js';

let harness: DaemonHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** An approved proposal on a request whose webhook was lost (so the daemon has not decided it); its id. */
function approvedProposalOnUnseenRequest(h: DaemonHarness): { proposalId: number; requestId: number } {
  h.sandbox.control.setFaults({ dropWebhookRate: 1 });
  const request = h.sandbox.control.createLoanRequest({ svcColor: 1, maxInterestRate: 0.6, competitorOffers: 0 });
  const nowMs = systemClock.now();
  const proposal = h.store.proposals.propose({
    tokenName: 'claude',
    loanRequestId: request.id,
    rate: 0.3,
    automateFund: false,
    amountCents: parseCents(request.total_amount),
    riskLevel: request.borrower_card_color,
    request,
    explanation: { why: 'beyond the allowance' },
    createdAtMs: nowMs,
    expiresAtMs: nowMs + 30 * 60_000,
  });
  expect(approveProposal({ store: h.store, clock: systemClock }, proposal.id, 'cli:test').changed).toBe(true);
  return { proposalId: proposal.id, requestId: request.id };
}

describe('the daemon with the proposals wing left out', () => {
  it('with the wing attached, the approved proposal is placed (the control)', async () => {
    harness = await startDaemonHarness();
    const { proposalId, requestId } = approvedProposalOnUnseenRequest(harness);
    // The runner looks once a real second.
    await waitFor(() => harness?.store.proposals.get(proposalId)?.outcome === 'placed', 'the approved proposal placed');
    expect(harness.store.decisions.get(requestId)?.source).toBe('agent:claude');
    await offerHookedAndPolled(harness);
  });

  it('decides and places from a webhook and a poll, and places no proposal', async () => {
    harness = await startDaemonHarness({ proposalsWing: false });
    const { proposalId, requestId } = approvedProposalOnUnseenRequest(harness);
    // Twice the runner's look: an attached runner would have placed it by now.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(harness.store.proposals.get(proposalId)?.status).toBe('approved');
    expect(harness.sandbox.control.offers().filter((offer) => offer.loan_request?.id === requestId)).toEqual([]);
    await offerHookedAndPolled(harness);
  });
});
