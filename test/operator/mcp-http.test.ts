/**
 * The agent connector over streamable HTTP, with the SDK's own client, against a daemon on the
 * sandbox: the tools, their answers checked against the sandbox, the confirmation flow, the
 * guard, and the bearer tokens.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balanceFromTransfers, type LoanRequest } from '../../src/domain/index.js';
import { collectPages } from '../../src/service/index.js';
import { agentView } from '../../src/operator/untrusted-data.js';
import { equityJson, equityNow } from '../../src/money/equity-now.js';
import {
  callTool,
  CLAUDE_TOKEN,
  connectAgent,
  market,
  OPERATOR_TOKEN,
  startOperatorHarness,
  type OperatorHarness,
} from './operator-harness.js';

const TOOLS = [
  'explain_decision',
  'get_balance',
  'get_banking_data',
  'get_borrower_history',
  'get_cash_flow_forecast',
  'get_payment_schedule',
  'get_proposal',
  'get_provider_score',
  'get_retrain_history',
  'get_status',
  'list_decisions',
  'list_loan_requests',
  'list_loans',
  'list_offers',
  'list_proposals',
  'list_transactions',
  'pause_offers',
  'place_offer',
  'resume_offers',
];

let h: OperatorHarness;
/** The operator's token: no allowance, so its offers wait for a person (test/operator/proposals.test.ts). */
let agent: Client;
/** claude's token, whose allowance covers every offer here: its offers are placed once confirmed. */
let trusted: Client;
/** Requests made for the tests, each used by one test only. */
let requests: Record<'read' | 'offer' | 'aboveMax' | 'elicit' | 'declined' | 'score' | 'otherToken' | 'paused', LoanRequest>;

beforeAll(async () => {
  h = await startOperatorHarness();
  const make = (fields: Parameters<OperatorHarness['sandbox']['control']['createLoanRequest']>[0] = {}) =>
    h.sandbox.control.createLoanRequest({ svcColor: 1, maxInterestRate: 0.3, competitorOffers: 0, hasBankingData: true, ...fields });
  requests = {
    read: make({ svcColor: 2, completedLoans: 3, state: 'CA' }),
    offer: make({ hasFundingResource: true }),
    aboveMax: make(),
    elicit: make(),
    declined: make(),
    score: make(),
    otherToken: make(),
    paused: make(),
  };
  agent = await connectAgent(h.mcpUrl, OPERATOR_TOKEN);
  trusted = await connectAgent(h.mcpUrl, CLAUDE_TOKEN);
}, 60_000);

afterAll(async () => {
  await agent?.close();
  await trusted?.close();
  await h?.close();
});

/** The offers the sandbox holds on one request. */
const offersAt = (id: number) => h.sandbox.control.offers().filter((offer) => offer.loan_request?.id === id);

describe('the MCP agent connector over HTTP', () => {
  it('lists every tool of the contract, and the resources', async () => {
    const { tools } = await agent.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(TOOLS);
    const { resources } = await agent.listResources();
    expect(resources.map((resource) => resource.uri).sort()).toEqual(['lendbot://config', 'lendbot://strategies']);
  });

  it('answers 401 with nothing else to a request without a token or with a wrong one', async () => {
    const initialize = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    for (const authorization of [undefined, 'Bearer wrong-token', `Basic ${OPERATOR_TOKEN}`, `Bearer ${OPERATOR_TOKEN}x`]) {
      const response = await fetch(h.mcpUrl, {
        method: 'POST',
        headers: authorization ? { ...headers, authorization } : headers,
        body: initialize,
      });
      expect(response.status).toBe(401);
      expect(await response.text()).toBe('');
    }
    await expect(connectAgent(h.mcpUrl, 'wrong-token')).rejects.toThrow();
    // The token never reaches the log.
    expect(JSON.stringify(h.logs)).not.toContain(OPERATOR_TOKEN);
    expect(JSON.stringify(h.logs)).not.toContain('wrong-token');
  });

  it('lists loan requests with the filters of spec 4.1, as the sandbox does', async () => {
    const { data } = await callTool(agent, 'list_loan_requests', { risk_level: 2, state: ['CA'], completed_loans: '1-5' });
    const expected = await h.service.listLoanRequests({ svcColor: 2, state: ['CA'], completedLoans: '1-5' });
    const ids = (market(data).items as LoanRequest[]).map((request) => request.id);
    expect(ids).toEqual(expected.items.map((request) => request.id));
    expect(ids).toContain(requests.read.id);
    expect(data.count).toBe(expected.count);
    const all = await callTool(agent, 'list_loan_requests', {});
    expect((market(all.data).items as LoanRequest[]).length).toBeGreaterThanOrEqual(Object.keys(requests).length);
  });

  it("reads a borrower's history and banking data as the sandbox has them", async () => {
    const history = await callTool(agent, 'get_borrower_history', { loan_request_id: requests.read.id });
    expect(market(history.data).items).toEqual(agentView((await h.service.listBorrowerLoanHistory(requests.read.id)).items));
    expect(history.data.count).toBe(3);
    const banking = await callTool(agent, 'get_banking_data', { loan_request_id: requests.read.id });
    // As the service has them, without the memos (as the database keeps them).
    const raw = await h.service.fetchBankingData(requests.read.id);
    expect(market(banking.data).banking_data).toEqual(agentView(raw));
    expect(JSON.stringify(market(banking.data))).not.toContain(raw.data_aggregation?.DepAcctTrns?.BankAcctTrnRec[0]?.Memo);
  });

  it('refuses an unknown request and bad arguments as answers, not crashes', async () => {
    const missing = await callTool(agent, 'place_offer', { loan_request_id: 999_999, rate: 0.2 });
    expect(missing).toMatchObject({ isError: true, data: { status: 'not_open' } });
    const bad = await agent.callTool({ name: 'place_offer', arguments: { loan_request_id: requests.offer.id, rate: 5 } });
    expect(bad.isError).toBe(true);
    expect(offersAt(requests.offer.id)).toHaveLength(0);
  });

  it('places nothing without confirmation, then exactly one offer the guard allowed once confirmed', async () => {
    const id = requests.offer.id;
    const first = await callTool(trusted, 'place_offer', { loan_request_id: id, rate: 0.2, automate_fund: true });
    expect(first.data).toMatchObject({ status: 'confirmation_required', would: { loan_request_id: id, rate: 0.2, automate_fund: true } });
    expect(first.text).toContain('Nothing was done');
    expect(offersAt(id)).toHaveLength(0);
    expect(h.store.offers.getByRequest(id)).toBeUndefined();
    expect(h.store.decisions.has(id)).toBe(false);

    const code = first.data.confirmation_code as string;
    // The code is bound to the arguments: another rate does not use it.
    const otherRate = await callTool(trusted, 'place_offer', {
      loan_request_id: id,
      rate: 0.25,
      automate_fund: true,
      confirmation_code: code,
    });
    expect(otherRate.data).toMatchObject({ status: 'not_confirmed' });
    expect(offersAt(id)).toHaveLength(0);

    const again = await callTool(trusted, 'place_offer', { loan_request_id: id, rate: 0.2, automate_fund: true });
    const confirmed = await callTool(trusted, 'place_offer', {
      loan_request_id: id,
      rate: 0.2,
      automate_fund: true,
      confirmation_code: again.data.confirmation_code,
    });
    expect(confirmed.data).toMatchObject({ status: 'placed', guard: { allowed: true } });
    const offers = offersAt(id);
    expect(offers).toHaveLength(1);
    expect(offers[0]).toMatchObject({ offered_interest: 0.2, automate_fund: true });
    expect(confirmed.data.service_offer_id).toBe(offers[0]!.id);
    expect(h.store.offers.getByRequest(id)).toMatchObject({ state: 'placed', rate: 0.2 });
    expect(h.store.decisions.get(id)).toMatchObject({ action: 'offer', rate: 0.2, source: 'agent:claude', placement: 'placed' });

    // A code works once; a new confirmed call is not sent twice either.
    const reused = await callTool(trusted, 'place_offer', {
      loan_request_id: id,
      rate: 0.2,
      automate_fund: true,
      confirmation_code: again.data.confirmation_code,
    });
    expect(reused.data).toMatchObject({ status: 'not_confirmed' });
    const third = await callTool(trusted, 'place_offer', { loan_request_id: id, rate: 0.2, automate_fund: true });
    const repeat = await callTool(trusted, 'place_offer', {
      loan_request_id: id,
      rate: 0.2,
      automate_fund: true,
      confirmation_code: third.data.confirmation_code,
    });
    expect(repeat.data).toMatchObject({ status: 'already_offered', offer_state: 'placed' });
    expect(offersAt(id)).toHaveLength(1);
  });

  it("refuses an offer above the request's maximum rate with the guard's reason", async () => {
    const id = requests.aboveMax.id;
    const first = await callTool(agent, 'place_offer', { loan_request_id: id, rate: 0.5 });
    const refused = await callTool(agent, 'place_offer', {
      loan_request_id: id,
      rate: 0.5,
      confirmation_code: first.data.confirmation_code,
    });
    expect(refused.data).toMatchObject({
      status: 'refused_by_guard',
      guard: {
        allowed: false,
        code: 'rate_above_max',
        reason: 'guard rate 0.5 > max_interest_rate 0.3',
        words: "the rate 50 % is above the borrower's maximum 30 %",
      },
    });
    // In words, not the guard's tokens (issue 36, item 7).
    expect(refused.text).toBe("Not offered: the rate 50 % is above the borrower's maximum 30 %.");
    expect(offersAt(id)).toHaveLength(0);
    expect(h.store.offers.getByRequest(id)).toBeUndefined();
    // Not a decision: the strategies may still decide the request themselves.
    expect(h.store.decisions.has(id)).toBe(false);
  });

  it('confirms through elicitation when the client supports it, and places nothing when declined', async () => {
    const prompts: string[] = [];
    const accepting = await connectAgent(h.mcpUrl, CLAUDE_TOKEN, (message) => {
      prompts.push(message);
      return { action: 'accept', content: { confirm: true } };
    });
    const declining = await connectAgent(h.mcpUrl, CLAUDE_TOKEN, () => ({ action: 'decline' }));
    try {
      const placed = await callTool(accepting, 'place_offer', { loan_request_id: requests.elicit.id, rate: 0.15 });
      expect(placed.data).toMatchObject({ status: 'placed' });
      expect(prompts).toHaveLength(1);
      expect(prompts[0]).toContain(`offer rate 0.15 on loan request ${requests.elicit.id}`);
      expect(offersAt(requests.elicit.id)).toHaveLength(1);
      expect(h.store.decisions.get(requests.elicit.id)?.source).toBe('agent:claude');

      const declined = await callTool(declining, 'place_offer', { loan_request_id: requests.declined.id, rate: 0.15 });
      expect(declined.data).toMatchObject({ status: 'not_confirmed', problem: 'declined' });
      expect(offersAt(requests.declined.id)).toHaveLength(0);
    } finally {
      await accepting.close();
      await declining.close();
    }
  });

  it('never places an offer with a code another token asked for', async () => {
    const args = { loan_request_id: requests.otherToken.id, rate: 0.2 };
    const first = await callTool(trusted, 'place_offer', args);
    expect(first.data).toMatchObject({ status: 'confirmation_required' });
    // The operator's token has no allowance: whatever code it brings, its offer waits for a person.
    const stolen = await callTool(agent, 'place_offer', { ...args, confirmation_code: first.data.confirmation_code });
    expect(stolen.data).toMatchObject({ status: 'proposal_pending' });
    expect(offersAt(requests.otherToken.id)).toHaveLength(0);
  });

  it("lists the decisions and explains one, the agent's and one not decided yet", async () => {
    const all = await callTool(agent, 'list_decisions', {});
    const decisions = all.data.decisions as Array<{ loan_request_id: number; source: string; action: string }>;
    expect(decisions.map((d) => d.loan_request_id).sort()).toEqual([requests.offer.id, requests.elicit.id].sort());
    const one = await callTool(agent, 'list_decisions', { loan_request_id: requests.offer.id });
    expect(one.data.decisions).toEqual([expect.objectContaining({ source: 'agent:claude', action: 'offer', rate: 0.2 })]);
    expect((await callTool(agent, 'list_decisions', { action: 'skip' })).data.decisions).toEqual([]);

    const explained = await callTool(agent, 'explain_decision', { loan_request_id: requests.offer.id });
    expect(explained.data).toMatchObject({
      decided: true,
      action: 'offer',
      source: 'agent:claude',
      rate: 0.2,
      guard: { verdict: 'allowed' },
    });
    const notYet = await callTool(agent, 'explain_decision', { loan_request_id: requests.read.id });
    expect(notYet.data).toMatchObject({ decided: false, strategy: expect.any(String) });
    expect(['offer', 'skip']).toContain(notYet.data.would);
    expect((notYet.data.reasons as string[]).length).toBeGreaterThan(0);
    // The sentence is in words (issue 36, item 7): the engine's tokens stay in the data's reasons.
    expect(notYet.text).toMatch(
      new RegExp(`^Request ${requests.read.id} \\(not decided yet\\) would be: (offer|skip), by strategy \\S+: `),
    );
    expect(notYet.text.split('\n')[0]).not.toMatch(/score probability|price |filter |_/);
    // Explaining buys nothing.
    expect(h.store.purchases.forRequest(requests.read.id)).toEqual([]);
  });

  it('buys a provider score only when confirmed, and counts it against the budget', async () => {
    const id = requests.score.id;
    const first = await callTool(agent, 'get_provider_score', { loan_request_id: id, provider: 'provider_b' });
    expect(first.data).toMatchObject({
      status: 'confirmation_required',
      would: { provider: 'provider_b', cost_cents: 150, budget_of: 'cashflow', budget_cents: 15_000 },
    });
    expect(h.sandbox.control.billing().providerB.requests).toBe(0);
    expect(h.store.purchases.forRequest(id)).toEqual([]);
    const bought = await callTool(agent, 'get_provider_score', {
      loan_request_id: id,
      provider: 'provider_b',
      confirmation_code: first.data.confirmation_code,
    });
    expect(bought.data).toMatchObject({ status: 'bought', cost_cents: 150 });
    expect(h.store.purchases.forRequest(id)).toEqual([
      expect.objectContaining({ kind: 'provider', provider: 'provider_b', strategy: 'cashflow', costCents: 150, ok: true }),
    ]);
    expect(h.sandbox.control.billing().providerB.requests).toBe(1);
    // The strategy's spend this month (its own purchases too) leaves less than the price: refused, nothing bought.
    h.store.purchases.record({
      loanRequestId: id,
      kind: 'provider',
      provider: 'provider_b',
      strategy: 'cashflow',
      costCents: 14_800,
      boughtAtMs: h.sandbox.clock.now(),
      ok: true,
    });
    const over = await callTool(agent, 'get_provider_score', { loan_request_id: id, provider: 'provider_b' });
    expect(over).toMatchObject({
      isError: true,
      data: { status: 'over_budget', reason: 'data budget 149.50 + 1.50 > 150.00 for provider_b' },
    });
    expect(h.sandbox.control.billing().providerB.requests).toBe(1);
    const unknown = await callTool(agent, 'get_provider_score', { loan_request_id: id, provider: 'nobody' });
    expect(unknown).toMatchObject({ isError: true, data: { status: 'unknown_provider' } });
  });

  it('pauses new offers, refuses offers while paused, and resumes only when confirmed', async () => {
    const paused = await callTool(agent, 'pause_offers', { reason: 'market looks odd' });
    expect(paused.data).toMatchObject({ paused: true, already_paused: false, kind: 'operator' });
    expect((await callTool(agent, 'get_status')).data).toMatchObject({
      pause: { kind: 'operator', reason: expect.stringContaining('agent:operator (market looks odd)') },
    });

    const args = { loan_request_id: requests.paused.id, rate: 0.2 };
    const first = await callTool(agent, 'place_offer', args);
    const refused = await callTool(agent, 'place_offer', { ...args, confirmation_code: first.data.confirmation_code });
    expect(refused.data).toMatchObject({ status: 'refused_by_guard', guard: { code: 'paused' } });
    expect(offersAt(requests.paused.id)).toHaveLength(0);

    const ask = await callTool(agent, 'resume_offers');
    expect(ask.data).toMatchObject({ status: 'confirmation_required', would: { kind: 'operator' } });
    expect((await callTool(agent, 'get_status')).data.pause).not.toBeNull();
    const resumed = await callTool(agent, 'resume_offers', { confirmation_code: ask.data.confirmation_code });
    expect(resumed.data).toMatchObject({ paused: false, lifted: 'operator' });
    expect((await callTool(agent, 'get_status')).data.pause).toBeNull();
  });

  it('shows the strategies and the effective config without secrets', async () => {
    const strategies = await agent.readResource({ uri: 'lendbot://strategies' });
    const texts = strategies.contents.map((content) => ('text' in content ? content.text : ''));
    expect(texts).toHaveLength(2);
    expect(texts[0]).toContain('name: offer-all');
    const config = await agent.readResource({ uri: 'lendbot://config' });
    const text = 'text' in config.contents[0]! ? config.contents[0].text : '';
    expect(text).toContain('env: LENDBOT_TOKEN_CLAUDE');
    expect(text).not.toContain(CLAUDE_TOKEN);
    expect(text).not.toContain(OPERATOR_TOKEN);
  });
  it("reads the lender's offers, loans, payments, transfers and balance as the sandbox has them", async () => {
    const offers = await callTool(agent, 'list_offers', {});
    const listed = offers.data.offers as Array<{ loan_request_id: number; state: string }>;
    expect(listed.map((offer) => offer.loan_request_id).sort()).toEqual([requests.offer.id, requests.elicit.id].sort());
    expect(listed.every((offer) => offer.state === 'placed')).toBe(true);

    // The borrower accepts the offer made with automate_fund: the sandbox funds it, a loan starts.
    const offerId = offersAt(requests.offer.id)[0]!.id;
    h.sandbox.control.acceptOffer(offerId);
    // A month on (last: the other requests leave the list): funded, the first payment is due.
    h.sandbox.control.advance(32 * 86_400_000);
    const current = await callTool(agent, 'list_loans', { status: 'current' });
    const expected = await h.service.listLoans('current');
    expect(market(current.data).items).toEqual(agentView(expected.items));
    expect(expected.items.length).toBeGreaterThan(0);
    const loanId = expected.items[0]!.id;
    const payments = await callTool(agent, 'get_payment_schedule', { loan_id: loanId });
    expect(market(payments.data).payments).toEqual(agentView((await h.service.listLoanPayments(loanId)).items));
    expect((market(payments.data).payments as unknown[]).length).toBeGreaterThan(0);
    expect(market((await callTool(agent, 'list_loans', { status: 'default' })).data).items).toEqual(
      agentView((await h.service.listLoans('default')).items),
    );

    const transfers = await callTool(agent, 'list_transactions', {});
    expect(market(transfers.data).items).toEqual(agentView((await h.service.listTransfers(1)).items));
    const balance = await callTool(agent, 'get_balance');
    const fromService = balanceFromTransfers((await collectPages(h.service.transferPages())).items).availableCents;
    expect(balance.data.balance_cents).toBe(fromService);
    expect(balance.data.free_cents).toBe(
      (balance.data.balance_cents as number) - (balance.data.reserved_cents as number) - (balance.data.min_cash_reserve_cents as number),
    );
    // Equity as every view reads it (money/equity-now.ts).
    expect(balance.data.equity).toEqual(equityJson(equityNow(h.store, h.sandbox.clock)));
  });
});
