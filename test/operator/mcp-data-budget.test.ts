/**
 * The data budget holds under concurrent purchases (issue 24, item 3): agents' confirmed
 * get_provider_score calls redeemed at once, and the daemon's own decisions buying the same
 * provider at the same time, all go through one queue where the budget check, the call and the
 * spend's record are one step. b-buyer has 3.00 a month for provider B at 1.50: two scores.
 * The sandbox answers slowly (200 ms), so without the queue every purchase would pass the check
 * before the first is recorded.
 */
import { fileURLToPath } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoanRequest } from '../../src/domain/index.js';
import { callTool, connectAgent, OPERATOR_TOKEN, startOperatorHarness, type OperatorHarness } from './operator-harness.js';

const B_BUYER = fileURLToPath(new URL('../daemon/fixtures/b-buyer.yaml', import.meta.url));
const OVER = 'data budget 3.00 + 1.50 > 3.00 for provider_b';

let h: OperatorHarness;
let agent: Client;

beforeAll(async () => {
  h = await startOperatorHarness({ strategyFiles: [B_BUYER] });
  agent = await connectAgent(h.mcpUrl, OPERATOR_TOKEN);
}, 60_000);

afterAll(async () => {
  await agent?.close();
  await h?.close();
});

/** Risk-level-1 requests with bank data (b-buyer buys provider B about those). */
function makeRequests(n: number): LoanRequest[] {
  return Array.from({ length: n }, () =>
    h.sandbox.control.createLoanRequest({ svcColor: 1, maxInterestRate: 0.6, competitorOffers: 0, hasBankingData: true }),
  );
}

/** A confirmation code for each purchase, asked one after the other (nothing is bought yet). */
async function codesFor(requests: readonly LoanRequest[]): Promise<string[]> {
  const codes: string[] = [];
  for (const request of requests) {
    const first = await callTool(agent, 'get_provider_score', { loan_request_id: request.id, provider: 'provider_b' });
    expect(first.data).toMatchObject({
      status: 'confirmation_required',
      would: { cost_cents: 150, budget_of: 'b-buyer', budget_cents: 300 },
    });
    codes.push(first.data.confirmation_code as string);
  }
  return codes;
}

const redeem = (request: LoanRequest, code: string) =>
  callTool(agent, 'get_provider_score', { loan_request_id: request.id, provider: 'provider_b', confirmation_code: code });

/** The priced provider B purchases recorded for `requests`. */
function boughtFor(requests: readonly LoanRequest[]) {
  return requests
    .flatMap((request) => h.store.purchases.forRequest(request.id))
    .filter((row) => row.provider === 'provider_b' && row.costCents > 0);
}

describe('the data budget under concurrent purchases', () => {
  it('6 confirmed agent purchases at once on a budget for 2 buy exactly 2; the others are refused with the budget reason', async () => {
    const requests = makeRequests(6);
    const codes = await codesFor(requests);
    const billedBefore = h.sandbox.control.billing().providerB.requests;
    h.sandbox.control.setFaults({ latencyMs: 200 });
    try {
      const answers = await Promise.all(requests.map((request, i) => redeem(request, codes[i]!)));
      const bought = answers.filter((a) => a.data.status === 'bought');
      const refused = answers.filter((a) => a.data.status === 'over_budget');
      expect(bought).toHaveLength(2);
      expect(refused).toHaveLength(4);
      for (const answer of refused) expect(answer).toMatchObject({ isError: true, data: { reason: OVER } });
    } finally {
      h.sandbox.control.setFaults({ latencyMs: 0 });
    }
    expect(h.sandbox.control.billing().providerB.requests - billedBefore).toBe(2);
    expect(boughtFor(requests).map((row) => [row.strategy, row.costCents])).toEqual([
      ['b-buyer', 150],
      ['b-buyer', 150],
    ]);
  });

  it("holds across the daemon's own decisions and agents' purchases at the same time", async () => {
    // A new month: a new budget (the requests of the last test have left the list by then).
    h.sandbox.control.advance(32 * 86_400_000);
    const forDaemon = makeRequests(3);
    const forAgents = makeRequests(3);
    const codes = await codesFor(forAgents);
    const billedBefore = h.sandbox.control.billing().providerB.requests;
    h.sandbox.control.setFaults({ latencyMs: 200 });
    let answers: Awaited<ReturnType<typeof redeem>>[];
    try {
      const decided = forDaemon.map((request) => h.daemon.pipeline.process(request, 'webhook'));
      answers = await Promise.all(forAgents.map((request, i) => redeem(request, codes[i]!)));
      await Promise.all(decided);
    } finally {
      h.sandbox.control.setFaults({ latencyMs: 0 });
    }
    const rows = boughtFor([...forDaemon, ...forAgents]);
    expect(rows.every((row) => row.strategy === 'b-buyer' && row.costCents === 150)).toBe(true);
    expect(rows).toHaveLength(2);
    expect(h.sandbox.control.billing().providerB.requests - billedBefore).toBe(2);
    // Each purchase refused for the budget says so: the agents' as answers, the daemon's in its decisions.
    const agentBought = answers.filter((a) => a.data.status === 'bought').length;
    for (const answer of answers.filter((a) => a.data.status !== 'bought'))
      expect(answer).toMatchObject({ isError: true, data: { status: 'over_budget', reason: OVER } });
    const daemonRefused = forDaemon.filter((request) => h.store.decisions.get(request.id)?.reasons.includes(OVER));
    expect(daemonRefused).toHaveLength(3 - (2 - agentBought));
  });
});
