/**
 * What a proposal says of itself (issue 36, item 6), against a daemon on the sandbox with a real
 * SQLite file and the SDK's client: "the bot's own view" is the strategy that decides the request
 * live, never a shadow challenger listed first; a proposal approved but not placed says so
 * (`verdict`), apart from one that was placed; a waiting proposal whose loan request closed
 * expires, saying why, instead of inviting an approval that could place nothing.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/clock.js';
import { HOUR_MS } from '../../src/clock/time-constants.js';
import type { ProposalDecisionAnswer, ProposalsAnswer } from '../../src/operator/api/api-types.js';
import { OFFER_ALL } from '../daemon/daemon-harness.js';
import { callTool, connectAgent } from './operator-harness.js';
import { CLAUDE_TOKEN, OPERATOR_TOKEN, postJson, startProposalHarness, type ProposalHarness } from './proposal-harness.js';

const SHADOW_CHEAP = fileURLToPath(new URL('../daemon/fixtures/shadow-cheap.yaml', import.meta.url));
const bearer = { authorization: `Bearer ${OPERATOR_TOKEN}` };
const realClock = new ManualClock('2026-03-10T09:00:00Z');
let h: ProposalHarness;
let claude: Client;

beforeAll(async () => {
  // The shadow challenger comes first in priority: the view must still be offer-all's.
  h = await startProposalHarness({ realClock, strategyFiles: [SHADOW_CHEAP, OFFER_ALL] });
  claude = await connectAgent(h.mcpUrl, CLAUDE_TOKEN);
}, 60_000);

afterAll(async () => {
  await claude?.close();
  await h?.close();
});

const propose = async (loanRequestId: number): Promise<number> =>
  (await callTool(claude, 'place_offer', { loan_request_id: loanRequestId, rate: 0.27 })).data.proposal_id as number;
const listed = async (id: number) => {
  const answer = (await (await h.call('/api/proposals', { headers: bearer })).json()) as ProposalsAnswer;
  return answer.proposals.find((proposal) => proposal.id === id);
};

describe("a proposal's own words", () => {
  it("shows the live strategy's decision as the bot's own view, not the shadow challenger's", async () => {
    const id = await propose(h.makeRequest().id);
    const proposal = await listed(id);
    expect(proposal?.explanation.strategy).toMatchObject({ name: 'offer-all', would: 'offer' });
    // Its reasons in plain words, not the engine's tokens ("score probability 0.99; price ...").
    const reasons = proposal?.explanation.strategy?.reasons ?? [];
    expect(reasons.length).toBeGreaterThan(0);
    for (const reason of reasons) expect(reason).not.toMatch(/^(score|price) |_/);
  });

  it('says "approved and placed" only when the offer was placed, and "approved, not placed" with why otherwise', async () => {
    const placedId = await propose(h.makeRequest().id);
    const placed = (await (await postJson(h, `/api/proposals/${placedId}/approve`, bearer)).json()) as ProposalDecisionAnswer;
    expect(placed.proposal).toMatchObject({ status: 'done', outcome: 'placed', verdict: 'placed', verdictLabel: 'approved and placed' });

    // The borrower withdraws the request while the proposal waits (before the runner notices).
    const request = h.makeRequest({ cancel: true, decisionDelayMs: HOUR_MS });
    const goneId = await propose(request.id);
    h.sandbox.control.advance(2 * HOUR_MS);
    const gone = (await (await postJson(h, `/api/proposals/${goneId}/approve`, bearer)).json()) as ProposalDecisionAnswer;
    expect(gone.proposal).toMatchObject({
      status: 'done',
      outcome: 'not_open',
      verdict: 'not_placed',
      verdictLabel: 'approved, not placed',
    });
    expect(gone.proposal.state).toContain(`not placed: loan request ${request.id} is no longer open`);
    const facts = (await callTool(claude, 'get_proposal', { proposal_id: goneId })).data;
    expect(facts).toMatchObject({ status: 'done', verdict: 'not_placed' });
  });

  it('expires a waiting proposal once its loan request closed, saying why', async () => {
    const request = h.makeRequest({ cancel: true, decisionDelayMs: HOUR_MS });
    const id = await propose(request.id);
    h.sandbox.control.advance(2 * HOUR_MS);
    // The runner looks at the open list every 15 s of real time (the injected clock).
    realClock.advance(20_000);
    await expect.poll(() => h.store.proposals.get(id)?.status, { timeout: 10_000 }).toBe('expired');
    const proposal = await listed(id);
    expect(proposal).toMatchObject({ verdict: 'expired', verdictLabel: 'expired', expiresAt: '2026-03-10T09:00:20.000Z' });
    expect(proposal?.state).toBe(
      `expired at 2026-03-10T09:00:20.000Z (loan request ${request.id} closed at the marketplace (taken, withdrawn or expired) before anyone approved it)`,
    );
    const late = await postJson(h, `/api/proposals/${id}/approve`, bearer);
    expect(late.status).toBe(409);
    expect(h.offersAt(request.id)).toHaveLength(0);
  });
});
