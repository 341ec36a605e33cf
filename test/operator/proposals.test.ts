/**
 * A person approves agents' offers (issue 24, item 4), with the SDK's own client over streamable
 * HTTP against a daemon on the sandbox and a real SQLite file: an agent without an allowance
 * places no money whatever it calls (a code, an elicitation "accept", the same call again and
 * again) until the operator approves; the agent's own bearer token (or a session it signs in
 * with) cannot approve; approving twice or too late does nothing and says why; offers within a
 * token's allowance are placed at once, and its day's total holds under calls at the same time;
 * proposals outlive a restart.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/clock.js';
import type { ProposalDecisionAnswer, ProposalsAnswer } from '../../src/operator/api/api-types.js';
import { parseCents } from '../../src/domain/index.js';
import { callTool, connectAgent } from './operator-harness.js';
import { CLAUDE_TOKEN, OPERATOR_TOKEN, postJson, SMALL_TOKEN, startProposalHarness, type ProposalHarness } from './proposal-harness.js';

const MINUTE = 60_000;
let h: ProposalHarness;
const realClock = new ManualClock('2026-03-10T09:00:00Z');
const accepted: string[] = [];
let claude: Client;
let claudeAccepting: Client;

beforeAll(async () => {
  h = await startProposalHarness({ realClock });
  claude = await connectAgent(h.mcpUrl, CLAUDE_TOKEN);
  claudeAccepting = await connectAgent(h.mcpUrl, CLAUDE_TOKEN, (message) => {
    accepted.push(message);
    return { action: 'accept', content: { confirm: true } };
  });
}, 60_000);

afterAll(async () => {
  await claude?.close();
  await claudeAccepting?.close();
  await h?.close();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const approve = (id: unknown, headers: Record<string, string>) => postJson(h, `/api/proposals/${String(id)}/approve`, headers);
const proposals = async (): Promise<ProposalsAnswer> =>
  (await (await h.call('/api/proposals', { headers: bearer(OPERATOR_TOKEN) })).json()) as ProposalsAnswer;

describe('an agent without an allowance', () => {
  it('places no money by any combination of calls: every one is the same proposal, waiting for a person', async () => {
    const request = h.makeRequest({ hasFundingResource: true });
    const args = { loan_request_id: request.id, rate: 0.2, automate_fund: true };

    const first = await callTool(claude, 'place_offer', args);
    expect(first.isError).toBe(false);
    expect(first.data).toMatchObject({
      status: 'proposal_pending',
      proposal_status: 'pending',
      already_proposed: false,
      loan_request_id: request.id,
      rate: 0.2,
      expires_at: '2026-03-10T09:30:00.000Z',
      approve_at: {
        dashboard: `${h.base}/#proposal-${String(first.data.proposal_id)}`,
        command: `lendbot approve ${String(first.data.proposal_id)}`,
      },
      why: 'token "claude" has no allowance, so every offer it asks for waits for a person',
    });
    expect(first.text).toContain(
      `Proposal ${String(first.data.proposal_id)} waits until 2026-03-10T09:30:00.000Z for a person to approve it on the dashboard`,
    );
    expect(first.data).not.toHaveProperty('confirmation_code');

    // A code it made up, the same call again, the same call from a client that accepts every
    // prompt (none is shown), five at once: the same proposal, and nothing at the sandbox.
    const withCode = await callTool(claude, 'place_offer', { ...args, confirmation_code: 'ABCDEFGH' });
    const again = await callTool(claude, 'place_offer', args);
    const elicited = await callTool(claudeAccepting, 'place_offer', args);
    const burst = await Promise.all(Array.from({ length: 5 }, () => callTool(claudeAccepting, 'place_offer', args)));
    for (const answer of [withCode, again, elicited, ...burst]) {
      expect(answer.data).toMatchObject({ status: 'proposal_pending', proposal_id: first.data.proposal_id, already_proposed: true });
    }
    expect(accepted).toEqual([]);
    expect(h.offersAt(request.id)).toHaveLength(0);
    expect(h.store.offers.getByRequest(request.id)).toBeUndefined();
    expect(h.store.decisions.has(request.id)).toBe(false);

    // Another rate is another proposal, not an offer either.
    const other = await callTool(claudeAccepting, 'place_offer', { ...args, rate: 0.25 });
    expect(other.data).toMatchObject({ status: 'proposal_pending', already_proposed: false });
    expect(other.data.proposal_id).not.toBe(first.data.proposal_id);
    expect(h.offersAt(request.id)).toHaveLength(0);

    // The proposal carries its explanation for the person.
    const listed = (await proposals()).proposals.find((proposal) => proposal.id === first.data.proposal_id);
    expect(listed).toMatchObject({
      agent: 'agent:claude',
      status: 'pending',
      amountCents: parseCents(request.total_amount),
      riskLevel: 1,
      automateFund: true,
      explanation: {
        why: 'token "claude" has no allowance, so every offer it asks for waits for a person',
        guardAtProposal: { allowed: true },
        strategy: { name: 'offer-all', would: 'offer' },
        loanTerms: request.loan_terms,
        maxInterestRate: 0.3,
      },
    });
    expect(listed?.explanation.summary).toContain(`offer rate 0.2 on loan request ${request.id}`);
  });

  it("is answered with the guard's refusal, and no proposal, when the guard refuses the offer now", async () => {
    const request = h.makeRequest();
    const refused = await callTool(claude, 'place_offer', { loan_request_id: request.id, rate: 0.5 });
    expect(refused.data).toMatchObject({ status: 'refused_by_guard', guard: { code: 'rate_above_max' } });
    expect(h.store.proposals.list({ limit: 100 }).filter((proposal) => proposal.loanRequestId === request.id)).toEqual([]);
  });
});

describe('approving', () => {
  it("refuses the agent's own token and any named token's session; the operator's session places the offer once", async () => {
    const request = h.makeRequest({ hasFundingResource: true });
    const proposed = await callTool(claude, 'place_offer', { loan_request_id: request.id, rate: 0.21, automate_fund: true });
    const id = proposed.data.proposal_id as number;

    const byAgent = await approve(id, bearer(CLAUDE_TOKEN));
    expect(byAgent.status).toBe(403);
    expect(((await byAgent.json()) as { error: string }).error).toContain('approving needs the operator');
    const agentSession = await h.signIn(CLAUDE_TOKEN);
    expect((await approve(id, { cookie: agentSession })).status).toBe(403);
    expect((await approve(id, bearer(SMALL_TOKEN))).status).toBe(403);
    expect((await postJson(h, `/api/proposals/${id}/reject`, bearer(CLAUDE_TOKEN))).status).toBe(403);
    // Without a token at all: the API's own 401, before any body is read.
    expect((await approve(id, {})).status).toBe(401);
    // A link opened in a browser (a GET) approves nothing.
    expect((await h.call(`/api/proposals/${id}/approve`)).status).toBe(404);
    expect(h.offersAt(request.id)).toHaveLength(0);
    expect(h.store.proposals.get(id)?.status).toBe('pending');

    const session = await h.signIn(OPERATOR_TOKEN);
    const approved = await approve(id, { cookie: session });
    expect(approved.status).toBe(200);
    const answer = (await approved.json()) as ProposalDecisionAnswer;
    const offers = h.offersAt(request.id);
    expect(offers).toHaveLength(1);
    expect(offers[0]).toMatchObject({ offered_interest: 0.21, automate_fund: true });
    expect(answer.proposal).toMatchObject({
      id,
      status: 'done',
      outcome: 'placed',
      decidedBy: 'dashboard:operator',
      serviceOfferId: offers[0]!.id,
    });
    expect(answer.message).toBe(
      `proposal ${id} approved by dashboard:operator at 2026-03-10T09:00:00.000Z: placed (offer ${offers[0]!.id})`,
    );
    expect(h.store.decisions.get(request.id)).toMatchObject({ action: 'offer', rate: 0.21, source: 'agent:claude', placement: 'placed' });
    expect(h.store.decisions.get(request.id)?.reasons[0]).toContain(`(confirmed by the approval of proposal ${id} by dashboard:operator)`);

    // Twice: nothing more, and why.
    const twice = await approve(id, { cookie: session });
    expect(twice.status).toBe(409);
    expect(((await twice.json()) as { error: string }).error).toBe(
      `proposal ${id} is no longer waiting: approved by dashboard:operator at 2026-03-10T09:00:00.000Z: placed (offer ${offers[0]!.id}); nothing was done`,
    );
    expect(h.offersAt(request.id)).toHaveLength(1);

    // The agent reads where it stands, and cannot read another token's proposals.
    const followed = await callTool(claude, 'get_proposal', { proposal_id: id });
    expect(followed.data).toMatchObject({ status: 'done', outcome: 'placed', decided_by: 'dashboard:operator', approve_at: null });
    // The outcome keeps its reasons as values beside their texts (what readers use; nothing parses the texts),
    // and the agent reads the texts alone, as before.
    const detail = h.store.proposals.get(id)?.outcomeDetail as { reasons: string[]; reason_values: Array<{ code: string }> };
    expect(detail.reason_values.map((reason) => reason.code)).toEqual(['agent_offered']);
    expect(detail.reasons).toHaveLength(1);
    expect((followed.data as { outcome_detail: Record<string, unknown> }).outcome_detail).toEqual({
      reasons: detail.reasons,
      service_offer_id: offers[0]!.id,
    });
    const small = await connectAgent(h.mcpUrl, SMALL_TOKEN);
    try {
      expect(await callTool(small, 'get_proposal', { proposal_id: id })).toMatchObject({ isError: true, data: { status: 'not_found' } });
    } finally {
      await small.close();
    }
  });

  it("lets the operator's session reject what the operator token proposed (rejecting places nothing), never approve it", async () => {
    const operatorAgent = await connectAgent(h.mcpUrl, OPERATOR_TOKEN);
    try {
      const request = h.makeRequest();
      const proposed = await callTool(operatorAgent, 'place_offer', { loan_request_id: request.id, rate: 0.2 });
      const id = proposed.data.proposal_id as number;
      const session = await h.signIn(OPERATOR_TOKEN);
      const rejected = await postJson(h, `/api/proposals/${id}/reject`, { cookie: session }, { reason: 'not this one' });
      expect(rejected.status).toBe(200);
      expect(((await rejected.json()) as ProposalDecisionAnswer).proposal).toMatchObject({
        status: 'rejected',
        note: 'not this one',
        decidedBy: 'dashboard:operator',
      });
      expect((await approve(id, { cookie: session })).status).toBe(403);
      expect(h.offersAt(request.id)).toHaveLength(0);
      expect(await callTool(operatorAgent, 'get_proposal', { proposal_id: id })).toMatchObject({
        data: { status: 'rejected', state: 'rejected by dashboard:operator at 2026-03-10T09:00:00.000Z: not this one' },
      });
    } finally {
      await operatorAgent.close();
    }
  });

  it('asks the guard again when approved: a pause since the proposal means nothing is placed', async () => {
    const request = h.makeRequest();
    const proposed = await callTool(claude, 'place_offer', { loan_request_id: request.id, rate: 0.2 });
    const id = proposed.data.proposal_id as number;
    expect((await postJson(h, '/api/pause', bearer(OPERATOR_TOKEN), { reason: 'looking at the market' })).status).toBe(200);
    try {
      const approved = await approve(id, bearer(OPERATOR_TOKEN));
      expect(approved.status).toBe(200);
      const answer = (await approved.json()) as ProposalDecisionAnswer;
      expect(answer.proposal).toMatchObject({ status: 'done', outcome: 'refused_by_guard' });
      expect(answer.message).toMatch(
        new RegExp(`^proposal ${id} approved by api:operator at \\S+: not placed: offers are paused: .*looking at the market`),
      );
      expect(h.offersAt(request.id)).toHaveLength(0);
      expect(h.store.offers.getByRequest(request.id)).toBeUndefined();
    } finally {
      expect((await postJson(h, '/api/resume', bearer(OPERATOR_TOKEN))).status).toBe(200);
    }
  });

  it('places nothing once the proposal expired (real time, the injected clock), and says so', async () => {
    const request = h.makeRequest();
    const proposed = await callTool(claude, 'place_offer', { loan_request_id: request.id, rate: 0.2 });
    const id = proposed.data.proposal_id as number;
    realClock.advance(30 * MINUTE);
    const late = await approve(id, bearer(OPERATOR_TOKEN));
    expect(late.status).toBe(409);
    expect(((await late.json()) as { error: string }).error).toBe(
      `proposal ${id} is no longer waiting: expired at 2026-03-10T09:30:00.000Z without a decision; nothing was done`,
    );
    expect(h.offersAt(request.id)).toHaveLength(0);
    expect((await callTool(claude, 'get_proposal', { proposal_id: id })).data).toMatchObject({ status: 'expired' });
    // A new ask is a new proposal, with its own half hour.
    const fresh = await callTool(claude, 'place_offer', { loan_request_id: request.id, rate: 0.2 });
    expect(fresh.data).toMatchObject({ status: 'proposal_pending', already_proposed: false, expires_at: '2026-03-10T10:00:00.000Z' });
  });

  it('keeps proposals across a restart of the daemon, and approves them after it', async () => {
    const request = h.makeRequest();
    const proposed = await callTool(claude, 'place_offer', { loan_request_id: request.id, rate: 0.22 });
    const id = proposed.data.proposal_id as number;
    await claude.close();
    await claudeAccepting.close();
    await h.restart();
    claude = await connectAgent(h.mcpUrl, CLAUDE_TOKEN);
    claudeAccepting = await connectAgent(h.mcpUrl, CLAUDE_TOKEN, () => ({ action: 'accept', content: { confirm: true } }));

    expect((await proposals()).proposals.find((proposal) => proposal.id === id)).toMatchObject({
      status: 'pending',
      link: `${h.base}/#proposal-${id}`,
    });
    // The operator's bearer token (a script's way) approves what another token proposed.
    const approved = await approve(id, bearer(OPERATOR_TOKEN));
    expect(approved.status).toBe(200);
    expect(((await approved.json()) as ProposalDecisionAnswer).proposal).toMatchObject({
      status: 'done',
      outcome: 'placed',
      decidedBy: 'api:operator',
    });
    expect(h.offersAt(request.id)).toHaveLength(1);
  });
});

describe('a token with an allowance', () => {
  it('places an offer within it at once (confirmed by the client), and proposes one beyond it', async () => {
    const small = await connectAgent(h.mcpUrl, SMALL_TOKEN);
    try {
      const within = h.makeRequest({ loanAmountCents: 50_000 });
      expect(parseCents(within.total_amount)).toBeLessThanOrEqual(150_000);
      const first = await callTool(small, 'place_offer', { loan_request_id: within.id, rate: 0.2 });
      expect(first.data).toMatchObject({ status: 'confirmation_required' });
      const placed = await callTool(small, 'place_offer', {
        loan_request_id: within.id,
        rate: 0.2,
        confirmation_code: first.data.confirmation_code,
      });
      expect(placed.data).toMatchObject({ status: 'placed', guard: { allowed: true } });
      expect(h.offersAt(within.id)).toHaveLength(1);
      expect(h.store.decisions.get(within.id)?.reasons[0]).toContain('(confirmed by code within the allowance of token small)');

      const tooBig = h.makeRequest({ loanAmountCents: 400_000 });
      const proposed = await callTool(small, 'place_offer', { loan_request_id: tooBig.id, rate: 0.2 });
      expect(proposed.data).toMatchObject({ status: 'proposal_pending' });
      expect(proposed.data.why).toMatch(/^\$4,\d{3}\.\d\d is above token "small"'s allowance of \$1,500\.00 per offer$/);
      const highRisk = h.makeRequest({ loanAmountCents: 50_000, svcColor: 2 });
      const risky = await callTool(small, 'place_offer', { loan_request_id: highRisk.id, rate: 0.2 });
      expect(risky.data).toMatchObject({
        status: 'proposal_pending',
        why: 'risk level 2 (high) is outside token "small"\'s allowance (levels 0 low, 1 medium)',
      });
      expect(h.offersAt(tooBig.id)).toHaveLength(0);
      expect(h.offersAt(highRisk.id)).toHaveLength(0);
    } finally {
      await small.close();
    }
  });

  it("holds the day's total across calls at the same time: the rest become proposals", async () => {
    const prompts: string[] = [];
    const small = await connectAgent(h.mcpUrl, SMALL_TOKEN, (message) => {
      prompts.push(message);
      return { action: 'accept', content: { confirm: true } };
    });
    try {
      // A new UTC day (real time): the allowance starts again at $2,500.
      realClock.set('2026-03-11T08:00:00Z');
      const requests = Array.from({ length: 5 }, () => h.makeRequest({ loanAmountCents: 80_000 }));
      // The fees differ a little from request to request: about $850 each, two fit in $2,500.
      const totals = requests.map((request) => parseCents(request.total_amount));
      const fit = Math.floor(250_000 / Math.max(...totals));
      expect(Math.floor(250_000 / Math.min(...totals))).toBe(fit);
      expect(fit).toBeGreaterThan(0);
      expect(fit).toBeLessThan(5);
      const answers = await Promise.all(
        requests.map((request) => callTool(small, 'place_offer', { loan_request_id: request.id, rate: 0.2 })),
      );
      const statuses = answers.map((answer) => answer.data.status);
      expect(statuses.filter((status) => status === 'placed')).toHaveLength(fit);
      expect(statuses.filter((status) => status === 'proposal_pending')).toHaveLength(5 - fit);
      const atSandbox = requests.reduce((sum, request) => sum + h.offersAt(request.id).length, 0);
      expect(atSandbox).toBe(fit);
      const placedCents = requests
        .filter((_request, index) => statuses[index] === 'placed')
        .reduce((sum, request) => sum + parseCents(request.total_amount), 0);
      expect(placedCents).toBeLessThanOrEqual(250_000);
      expect(h.store.proposals.allowanceUsedCents('small', Date.parse('2026-03-11T00:00:00Z'), Date.parse('2026-03-12T00:00:00Z'))).toBe(
        placedCents,
      );
      for (const answer of answers.filter((a) => a.data.status === 'proposal_pending'))
        expect(answer.data.why).toContain('is above token "small"\'s allowance of $2,500.00 a day (UTC)');
    } finally {
      await small.close();
    }
  });
});
