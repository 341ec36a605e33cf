// Provider A's 200 USD a month, against the sandbox (which bills a month of use): charged once in a
// UTC month and again in the next, as a purchases row of its own; each strategy's budget checked
// against its own spend, so one strategy that spent its budget stops buying while another keeps
// buying; status and the budget warnings show each strategy's spend.
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { NotificationEvent } from '../../src/domain/index.js';
import { NotificationWatcher } from '../../src/messaging/notification-watcher.js';
import { buildStatusReport } from '../../src/ops/status-report.js';
import { formatStatusText, statusJson } from '../../src/ops/status-text.js';
import { UNCAPPED_RISK_LIMITS } from '../../src/risk/index.js';
import { startDaemonHarness, type DaemonHarness } from './daemon-harness.js';

const SUBSCRIBER = fileURLToPath(new URL('./fixtures/subscriber.yaml', import.meta.url));
const B_BUYER = fileURLToPath(new URL('./fixtures/b-buyer.yaml', import.meta.url));
const BUDGETS = [
  { strategy: 'subscriber', monthlyBudgetCents: 20_300 },
  { strategy: 'b-buyer', monthlyBudgetCents: 300 },
];

let harness: DaemonHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** A request of `riskLevel` with bank data (the sandbox's providers score only those), decided by one poll. */
async function decideOne(h: DaemonHarness, riskLevel: number) {
  const request = h.sandbox.control.createLoanRequest({ svcColor: riskLevel, hasBankingData: true, competitorOffers: 0 });
  await h.daemon.poller.poll();
  await h.daemon.pipeline.idle();
  const decision = h.store.decisions.get(request.id);
  if (decision === undefined) throw new Error(`request ${request.id} was not decided`);
  // Free rows are written after the offer (src/daemon/deferred-purchases.ts): compare in a fixed order.
  const purchases = h.store.purchases.forRequest(request.id).sort((a, b) => order(a.kind, a.provider) - order(b.kind, b.provider));
  return { id: request.id, decision, purchases };
}

const order = (kind: string, provider: string | null) =>
  ['subscription', 'provider_a', 'provider_b'].indexOf(kind === 'subscription' ? kind : (provider ?? ''));

const budgetReasons = (reasons: readonly string[]) => reasons.filter((reason) => reason.startsWith('data budget'));

function statusAt(h: DaemonHarness) {
  return buildStatusReport({ store: h.store, nowMs: h.sandbox.clock.now(), limits: UNCAPPED_RISK_LIMITS, budgets: BUDGETS, dryRun: false });
}

describe("provider A's subscription and per-strategy budgets, against the sandbox", () => {
  it('charges the month once, again the next month, and stops only the strategy over its own budget', async () => {
    harness = await startDaemonHarness({
      strategyFiles: [SUBSCRIBER, B_BUYER],
      sandbox: { startTime: '2026-03-30T12:00:00Z', arrivalsPerHour: 0 },
      // Enough for every request's offer: the guard, asked before buying, would refuse the data too.
      balanceCents: 10_000_000,
    });
    const h = harness;
    h.sandbox.control.setFaults({ dropWebhookRate: 1 }); // one request a poll, in the order made
    const sent: Array<{ event: NotificationEvent; data: Record<string, unknown> }> = [];
    const watcher = new NotificationWatcher({
      store: h.store,
      clock: h.sandbox.clock,
      notifier: { notify: async (event, data) => (sent.push({ event, data }), 'sent') },
      status: () => statusAt(h),
    });

    // March: the subscriber's first request starts the month's subscription.
    const first = await decideOne(h, 0);
    expect(first.purchases.map((p) => [p.kind, p.provider, p.strategy, p.costCents, p.ok])).toEqual([
      ['subscription', 'provider_a', 'subscriber', 20_000, true],
      ['provider', 'provider_a', 'subscriber', 0, true],
      ['provider', 'provider_b', 'subscriber', 150, true],
    ]);
    // 201.50 of the subscriber's 203.00 warns; b-buyer has spent nothing of its 3.00.
    await watcher.check();
    expect(sent.filter((s) => s.event === 'budget_nearly_spent').map((s) => s.data)).toEqual([
      { strategy: 'subscriber', spent_cents: 20_150, monthly_budget_cents: 20_300 },
    ]);

    const b1 = await decideOne(h, 1);
    const second = await decideOne(h, 0);
    const third = await decideOne(h, 0);
    const b2 = await decideOne(h, 1);
    expect(second.purchases.map((p) => [p.kind, p.provider, p.costCents])).toEqual([
      ['provider', 'provider_a', 0],
      ['provider', 'provider_b', 150],
    ]);
    // 203.00 spent of its own 203.00: no more B for the subscriber ...
    expect(budgetReasons(third.decision.reasons)).toEqual(['data budget 203.00 + 1.50 > 203.00 for provider_b']);
    expect(third.purchases.map((p) => p.provider)).toEqual(['provider_a']);
    // ... while b-buyer, 3.00 within its own 3.00 though the account spent 206.00, buys both.
    for (const bought of [b1, b2]) {
      expect(budgetReasons(bought.decision.reasons)).toEqual([]);
      expect(bought.purchases.map((p) => [p.kind, p.provider, p.strategy, p.costCents])).toEqual([
        ['provider', 'provider_b', 'b-buyer', 150],
      ]);
    }
    const march = { fromMs: Date.parse('2026-03-01T00:00:00Z'), toMs: Date.parse('2026-04-01T00:00:00Z') };
    expect(h.store.purchases.spendCents(march)).toBe(20_600);
    expect(h.store.purchases.strategySpendCents({ strategy: 'subscriber', ...march })).toBe(20_300);
    expect(h.store.purchases.strategySpendCents({ strategy: 'b-buyer', ...march })).toBe(300);
    expect(h.sandbox.control.billing().providerA.months).toEqual(['2026-03']);

    // Status: the month's spend includes the subscription; each strategy against its own budget.
    const status = statusAt(h);
    const text = formatStatusText(status);
    expect(text).toMatch(/data spend\s+206\.00 since 2026-03-01/);
    expect(text).toMatch(/subscription provider_a\s+200\.00 on 2026-03-30 \(subscriber\)/);
    expect(text).toMatch(/budget subscriber\s+203\.00 of 203\.00 \(0\.00 left\)/);
    expect(text).toMatch(/budget b-buyer\s+3\.00 of 3\.00 \(0\.00 left\)/);
    expect(statusJson(status).data_spend).toEqual({
      month_start: '2026-03-01T00:00:00.000Z',
      spent_cents: 20_600,
      subscriptions: [{ provider: 'provider_a', strategy: 'subscriber', cost_cents: 20_000, at: '2026-03-30T12:00:00.000Z' }],
      budgets: [
        { strategy: 'subscriber', monthly_budget_cents: 20_300, spent_cents: 20_300 },
        { strategy: 'b-buyer', monthly_budget_cents: 300, spent_cents: 300 },
      ],
    });

    // April: a new subscription, and the subscriber's budget is its own again.
    h.sandbox.control.setTime('2026-04-01T00:30:00Z');
    const april = await decideOne(h, 0);
    expect(budgetReasons(april.decision.reasons)).toEqual([]);
    expect(april.purchases.map((p) => [p.kind, p.provider, p.costCents])).toEqual([
      ['subscription', 'provider_a', 20_000],
      ['provider', 'provider_a', 0],
      ['provider', 'provider_b', 150],
    ]);
    const subscriptions = h.store.purchases.subscriptions({ fromMs: march.fromMs, toMs: Date.parse('2026-05-01T00:00:00Z') });
    expect(subscriptions.map((row) => row.boughtAt.slice(0, 7))).toEqual(['2026-03', '2026-04']);
    expect(h.sandbox.control.billing().providerA.months).toEqual(['2026-03', '2026-04']);
    expect(statusAt(h).dataSpend).toMatchObject({ monthStart: '2026-04-01T00:00:00.000Z', spentCents: 20_150 });
  });
});
