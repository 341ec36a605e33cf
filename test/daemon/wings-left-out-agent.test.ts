/**
 * A wing the daemon leaves out (issue 38, item 2) adds nothing to its agent connector either, as if
 * its folder were deleted: an agent of the SDK's own client, on the daemon's operator listener,
 * lists none of the retrain, proposals and cash-flow wings' tools (DaemonOverrides = false; their
 * routes are test/operator/api-auth.test.ts's), and without the proposals wing an offer beyond the
 * caller's allowance is refused instead of waiting for a person. The control attaches every wing.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, describe, expect, it } from 'vitest';
import { callTool, connectAgent } from '../operator/operator-harness.js';
import { startDaemonHarness, type DaemonHarness, type HarnessOptions } from './daemon-harness.js';

/** The operator's token: no allowance, so every offer it asks for is beyond it. */
const OPERATOR_TOKEN = 'operator-token-wings-3c9a51';
/** The tools the three wings add (retrain-tools.ts, proposal-tools.ts, cash-flow-tools.ts). */
const WING_TOOLS = ['get_retrain_history', 'get_proposal', 'list_proposals', 'get_cash_flow_forecast'];
/** Some of the connector's own tools, there whichever wings are attached. */
const CORE_TOOLS = ['get_balance', 'get_status', 'list_loan_requests', 'place_offer', 'pause_offers'];

let harness: DaemonHarness | undefined;
let agent: Client | undefined;
afterEach(async () => {
  await agent?.close();
  await harness?.close();
  agent = undefined;
  harness = undefined;
});

/** A daemon with the operator token and these wings left out, and an agent connected to its /mcp. */
async function agentOn(wings: Pick<HarnessOptions, 'proposalsWing' | 'cashFlowWing' | 'retrainWing'>): Promise<Client> {
  harness = await startDaemonHarness({ env: { LENDBOT_OPERATOR_TOKEN: OPERATOR_TOKEN }, ...wings });
  const base = harness.daemon.operatorUrl();
  if (base === undefined) throw new Error('the operator listener did not start');
  agent = await connectAgent(new URL('/mcp', base), OPERATOR_TOKEN);
  return agent;
}

/** The agent asks for an offer on a request the daemon has not seen (its webhook lost), so the daemon made none. */
async function offerBeyondAllowance(h: DaemonHarness, client: Client): Promise<Awaited<ReturnType<typeof callTool>>> {
  h.sandbox.control.setFaults({ dropWebhookRate: 1 });
  const request = h.sandbox.control.createLoanRequest({ svcColor: 1, maxInterestRate: 0.6, competitorOffers: 0 });
  return callTool(client, 'place_offer', { loan_request_id: request.id, rate: 0.3 });
}

const names = async (client: Client): Promise<string[]> => (await client.listTools()).tools.map((tool) => tool.name);

describe("the daemon's agent connector with wings left out", () => {
  it('with every wing attached, lists their tools and proposes an offer beyond the allowance (the control)', async () => {
    const client = await agentOn({});
    expect(await names(client)).toEqual(expect.arrayContaining([...CORE_TOOLS, ...WING_TOOLS]));
    const asked = await offerBeyondAllowance(harness!, client);
    expect(asked.isError).toBe(false);
    expect(asked.data).toMatchObject({ status: 'proposal_pending' });
    expect(harness!.store.proposals.list({ limit: 10 })).toHaveLength(1);
  });

  it('with proposals, cash flow and retrain left out, lists none of their tools and refuses an offer beyond the allowance', async () => {
    const client = await agentOn({ proposalsWing: false, cashFlowWing: false, retrainWing: false });
    const listed = await names(client);
    expect(listed).toEqual(expect.arrayContaining(CORE_TOOLS));
    expect(listed.filter((name) => WING_TOOLS.includes(name))).toEqual([]);
    const asked = await offerBeyondAllowance(harness!, client);
    expect(asked.isError).toBe(true);
    expect(asked.data).toMatchObject({ status: 'beyond_allowance' });
    expect(asked.text).toMatch(
      /^Not offered: .+\. The proposals wing is not attached here, so no proposal is made and no person can approve it; nothing was sent\.$/,
    );
    expect(harness!.store.proposals.list({ limit: 10 })).toEqual([]);
    expect(harness!.sandbox.control.offers()).toEqual([]);
  });

  it('with only the proposals wing left out, keeps the other wings\u2019 tools', async () => {
    const listed = await names(await agentOn({ proposalsWing: false }));
    expect(listed).toEqual(expect.arrayContaining([...CORE_TOOLS, 'get_retrain_history', 'get_cash_flow_forecast']));
    expect(listed).not.toContain('get_proposal');
    expect(listed).not.toContain('list_proposals');
  });
});
