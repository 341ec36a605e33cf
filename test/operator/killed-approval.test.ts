/**
 * Issue 37, item 3 (its second half): an agent's proposal approved, the process killed while its
 * offer was being placed, then started again. The placing was taken up again (the proposal was
 * `placing`), found the offer row that placing had written, and recorded the proposal as
 * `already_offered`, as if another had offered. The offer row is now noted on the proposal before
 * the POST, so the approval that placed it is told its own offer's outcome.
 *
 * The kill is the database as it was on disk while the POST was in flight (an online backup, so
 * every committed transaction and nothing after), put back in place before the restart; the
 * sandbox meanwhile took the offer.
 */
import { renameSync, rmSync } from 'node:fs';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseOf } from '../../src/store/index.js';
import { waitFor } from '../daemon/daemon-harness.js';
import { callTool, connectAgent } from './operator-harness.js';
import { CLAUDE_TOKEN, OPERATOR_TOKEN, postJson, startProposalHarness, type ProposalHarness } from './proposal-harness.js';

let h: ProposalHarness;
let claude: Client;
beforeAll(async () => {
  h = await startProposalHarness();
  claude = await connectAgent(h.mcpUrl, CLAUDE_TOKEN);
}, 60_000);
afterAll(async () => {
  await claude?.close();
  await h?.close();
});

describe('an approval whose placing the process was killed in the middle of', () => {
  it('is recorded with its own offer after the restart, never as already offered', async () => {
    const request = h.makeRequest();
    const proposed = await callTool(claude, 'place_offer', { loan_request_id: request.id, rate: 0.22 });
    const id = proposed.data.proposal_id as number;
    // Every answer of the sandbox takes 1.5 s: the POST is in flight long enough to "kill" during it.
    h.sandbox.control.setFaults({ latencyMs: 1500 });
    const approving = postJson(h, `/api/proposals/${id}/approve`, { authorization: `Bearer ${OPERATOR_TOKEN}` });
    await waitFor(() => h.store.offers.getByRequest(request.id)?.state === 'intent', 'the intent row');
    const atKill = `${h.dbPath}.at-kill`;
    await databaseOf(h.store).backup(atKill);
    expect((await approving).status).toBe(200);
    expect(h.offersAt(request.id)).toHaveLength(1);
    h.sandbox.control.setFaults({ latencyMs: 0 });
    await claude.close();

    await h.restart(() => {
      for (const suffix of ['', '-wal', '-shm']) rmSync(`${h.dbPath}${suffix}`, { force: true });
      // The file as the kill left it.
      renameSync(atKill, h.dbPath);
    });

    await waitFor(() => h.store.proposals.get(id)?.status === 'done', 'the approval taken up again');
    const done = h.store.proposals.get(id);
    expect(done?.outcome).not.toBe('already_offered');
    expect(['placed', 'unknown']).toContain(done?.outcome);
    // Once settled, the offer is the one the approval placed, and the decision is the agent's.
    await waitFor(() => h.store.offers.getByRequest(request.id)?.state === 'placed', 'the offer settled');
    expect(h.store.decisions.get(request.id)).toMatchObject({ source: 'agent:claude', action: 'offer' });
    expect(h.offersAt(request.id)).toHaveLength(1);
  });
});
