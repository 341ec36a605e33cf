/**
 * `lendbot approve` and `lendbot reject` beside a running daemon on the same SQLite file (the
 * proposals' harness: the sandbox, the operator listener, the SDK's client as the agent): the
 * command records the person's decision, the daemon places the offer and the command prints what
 * became of it; a second approval, or one of a rejected proposal, changes nothing and says why.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, connectAgent } from '../operator/operator-harness.js';
import { CLAUDE_TOKEN, OPERATOR_TOKEN, postJson, startProposalHarness, type ProposalHarness } from '../operator/proposal-harness.js';
import { runCli } from './run-cli.js';

let h: ProposalHarness;
let agent: Client;

beforeAll(async () => {
  h = await startProposalHarness();
  agent = await connectAgent(h.mcpUrl, CLAUDE_TOKEN);
}, 60_000);

afterAll(async () => {
  await agent?.close();
  await h?.close();
});

async function propose(rate: number): Promise<{ id: number; loanRequestId: number }> {
  const request = h.makeRequest({ hasFundingResource: true });
  const answer = await callTool(agent, 'place_offer', { loan_request_id: request.id, rate, automate_fund: true });
  expect(answer.data).toMatchObject({ status: 'proposal_pending' });
  return { id: answer.data.proposal_id as number, loanRequestId: request.id };
}

describe('lendbot approve and reject', () => {
  it('approves what the operator token proposed at /mcp, which that token can approve neither as a bearer nor through its session', async () => {
    const operatorAgent = await connectAgent(h.mcpUrl, OPERATOR_TOKEN);
    try {
      const request = h.makeRequest();
      const proposed = await callTool(operatorAgent, 'place_offer', { loan_request_id: request.id, rate: 0.2 });
      expect(proposed.data).toMatchObject({ status: 'proposal_pending' });
      const id = proposed.data.proposal_id as number;
      const approve = (headers: Record<string, string>) => postJson(h, `/api/proposals/${id}/approve`, headers);
      const byBearer = await approve({ authorization: `Bearer ${OPERATOR_TOKEN}` });
      expect(byBearer.status).toBe(403);
      // One sign-in with the same token is the same identity: no right its bearer header lacks.
      const bySession = await approve({ cookie: await h.signIn(OPERATOR_TOKEN) });
      expect(bySession.status).toBe(403);
      expect(((await bySession.json()) as { error: string }).error).toBe(
        `proposal ${id} was asked for with the operator token at /mcp: that token cannot approve it too, as a bearer or through a session signed in with it; approve it with lendbot approve ${id} on the daemon's machine or /approve ${id} in Telegram`,
      );
      expect(h.store.proposals.get(id)).toMatchObject({ status: 'pending' });
      expect(h.offersAt(request.id)).toHaveLength(0);

      // Another person's way approves it, and the running daemon places it.
      const approved = await runCli(['approve', String(id), '--db', h.dbPath, '--as', 'alice']);
      expect(approved.stderr).toBe('');
      expect(approved.code).toBe(0);
      expect(h.offersAt(request.id)).toHaveLength(1);
      expect(h.store.proposals.get(id)).toMatchObject({ status: 'done', outcome: 'placed', decidedBy: 'cli:alice' });
    } finally {
      await operatorAgent.close();
    }
  });

  it('lists what waits, approves one, and prints the offer the running daemon placed', async () => {
    const { id, loanRequestId } = await propose(0.2);
    const listed = await runCli(['approve', '--db', h.dbPath]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain('1 proposal waits for a person (lendbot approve ID, lendbot reject ID):\n');
    expect(listed.stdout).toContain(`  #${id}  offer 0.2 on loan request ${loanRequestId} (`);
    expect(listed.stdout).toContain('      why a person: token "claude" has no allowance, so every offer it asks for waits for a person\n');
    expect(listed.stdout).toContain('      guard when asked: allowed; it is asked again when approved\n');
    expect(listed.stdout).toContain("      the bot's own view: offer-all would offer");
    expect(listed.stdout).toContain(`      on the dashboard: ${h.base}/#proposal-${id}\n`);
    expect(h.offersAt(loanRequestId)).toHaveLength(0);

    const approved = await runCli(['approve', String(id), '--db', h.dbPath, '--as', 'alice']);
    expect(approved.stderr).toBe('');
    expect(approved.code).toBe(0);
    const offers = h.offersAt(loanRequestId);
    expect(offers).toHaveLength(1);
    expect(offers[0]).toMatchObject({ offered_interest: 0.2, automate_fund: true });
    expect(approved.stdout).toMatch(
      new RegExp(`^approved proposal ${id}: offer 0.2 on loan request ${loanRequestId} \\(.*\\), asked by agent:claude\\n`),
    );
    expect(approved.stdout).toMatch(new RegExp(`\\nproposal ${id} approved by cli:alice at \\S+: placed \\(offer ${offers[0]!.id}\\)\\n$`));
    expect(h.store.decisions.get(loanRequestId)).toMatchObject({ source: 'agent:claude', placement: 'placed' });

    const twice = await runCli(['approve', String(id), '--db', h.dbPath]);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toMatch(
      new RegExp(
        `^lendbot: proposal ${id} is no longer waiting: approved by cli:alice at \\S+: placed \\(offer ${offers[0]!.id}\\); nothing was done\\n$`,
      ),
    );
    expect(h.offersAt(loanRequestId)).toHaveLength(1);
    expect((await runCli(['approve', '--db', h.dbPath])).stdout).toBe('no proposal waits for a person\n');
  });

  it('rejects one for good: it is never placed, and the agent reads the reason', async () => {
    const { id, loanRequestId } = await propose(0.23);
    const rejected = await runCli(['reject', String(id), '--db', h.dbPath, '--as', 'bob', '--reason', 'too large for this borrower']);
    expect(rejected).toMatchObject({ code: 0, stderr: '' });
    expect(rejected.stdout).toMatch(new RegExp(`^rejected proposal ${id}: .*; nothing is placed\\n$`));
    const late = await runCli(['approve', String(id), '--db', h.dbPath]);
    expect(late.code).toBe(1);
    expect(late.stderr).toMatch(
      new RegExp(
        `^lendbot: proposal ${id} is no longer waiting: rejected by cli:bob at \\S+: too large for this borrower; nothing was done\\n$`,
      ),
    );
    expect(h.offersAt(loanRequestId)).toHaveLength(0);
    expect((await callTool(agent, 'get_proposal', { proposal_id: id })).data).toMatchObject({ status: 'rejected', decided_by: 'cli:bob' });
  });

  it('refuses an id that is not a proposal, and explains itself with examples', async () => {
    expect(await runCli(['approve', '99999', '--db', h.dbPath])).toMatchObject({
      code: 1,
      stderr: 'lendbot: there is no proposal 99999\n',
    });
    expect(await runCli(['reject', 'x', '--db', h.dbPath])).toMatchObject({
      code: 1,
      stderr: 'lendbot: a proposal id is a positive whole number (got "x"); lendbot approve lists them\n',
    });
    const help = await runCli(['approve', '--help']);
    expect(help.stdout).toContain(
      "Usage: lendbot approve [options] [id]\n\napprove an agent's offer proposal (the running daemon places it), or list those",
    );
    expect(help.stdout).toContain('\nExamples:\n  lendbot approve ');
    expect((await runCli(['reject', '--help'])).stdout).toContain('  lendbot reject 12 --reason "too large for this borrower"');
  });
});
