/**
 * A proposal in the sandbox lives long enough to be approved (issue 36, item 6): the daemon, as
 * `lendbot run --sandbox` builds it, asks the sandbox to hold the request while the proposal
 * waits, so its borrower does not decide before a person can; approving places the offer and
 * lets the borrower decide; rejecting lets it decide too. Real SQLite file, the SDK's client,
 * the sandbox's control API over HTTP.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/clock.js';
import { HOUR_MS } from '../../src/clock/time-constants.js';
import type { ProposalDecisionAnswer } from '../../src/operator/api/api-types.js';
import { callTool, connectAgent } from './operator-harness.js';
import { CLAUDE_TOKEN, OPERATOR_TOKEN, postJson, startProposalHarness, type ProposalHarness } from './proposal-harness.js';

const bearer = { authorization: `Bearer ${OPERATOR_TOKEN}` };
let h: ProposalHarness;
let claude: Client;

beforeAll(async () => {
  h = await startProposalHarness({ realClock: new ManualClock('2026-03-10T09:00:00Z'), holdRequests: true });
  claude = await connectAgent(h.mcpUrl, CLAUDE_TOKEN);
}, 60_000);

afterAll(async () => {
  await claude?.close();
  await h?.close();
});

const propose = async (loanRequestId: number): Promise<number> =>
  (await callTool(claude, 'place_offer', { loan_request_id: loanRequestId, rate: 0.27 })).data.proposal_id as number;
const listed = (id: number): boolean => h.sandbox.control.groundTruth(id).requestStatus === 'open';

describe('a proposal in the sandbox', () => {
  it("holds its request past the borrower's decision, so the approval places the offer", async () => {
    // Without the hold this borrower would withdraw an hour after listing.
    const request = h.makeRequest({ cancel: true, decisionDelayMs: HOUR_MS });
    const id = await propose(request.id);
    h.sandbox.control.advance(20 * HOUR_MS);
    expect(listed(request.id)).toBe(true);
    const answer = (await (await postJson(h, `/api/proposals/${id}/approve`, bearer)).json()) as ProposalDecisionAnswer;
    expect(answer.proposal).toMatchObject({ outcome: 'placed', verdict: 'placed' });
    expect(h.offersAt(request.id)).toHaveLength(1);
    // Decided: the borrower's put-off decision ran (this one withdraws), the request is gone.
    expect(listed(request.id)).toBe(false);
  });

  it('lets the borrower decide once the proposal is rejected', async () => {
    const request = h.makeRequest({ cancel: true, decisionDelayMs: HOUR_MS });
    const id = await propose(request.id);
    h.sandbox.control.advance(2 * HOUR_MS);
    expect(listed(request.id)).toBe(true);
    expect((await postJson(h, `/api/proposals/${id}/reject`, bearer, { reason: 'not this one' })).status).toBe(200);
    expect(listed(request.id)).toBe(false);
    expect(h.offersAt(request.id)).toHaveLength(0);
  });
});
