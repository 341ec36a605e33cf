// A live A/B split of capital (risk.split): requests go to an arm by a stable hash of their id,
// each arm's strategy decides its own requests, and the guard holds each arm to its share of the
// capital, against the sandbox.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { armOf } from '../../src/risk/arm-share-rule.js';
import { databaseOf } from '../../src/store/index.js';
import { createShadowSplitRepository } from '../../src/store/shadow-split-repository.js';
import { runCli } from '../cli/run-cli.js';
import { OFFER_ALL, startDaemonHarness, type DaemonHarness } from './daemon-harness.js';

const SPLIT_B = fileURLToPath(new URL('./fixtures/split-b.yaml', import.meta.url));

let harness: DaemonHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('the split assignment', () => {
  it('puts the same id in the same arm, and shares near their targets on many ids', () => {
    const even = { strategies: ['a', 'b'] as [string, string], shares: [0.5, 0.5] as [number, number] };
    const skewed = { strategies: ['a', 'b'] as [string, string], shares: [0.2, 0.8] as [number, number] };
    for (let id = 1; id <= 200; id++) expect(armOf(id, even)).toBe(armOf(id, { ...even }));
    const ids = Array.from({ length: 20_000 }, (_, index) => 1_000 + index * 7);
    const firstShare = (split: typeof even) => ids.filter((id) => armOf(id, split) === 0).length / ids.length;
    expect(Math.abs(firstShare(even) - 0.5)).toBeLessThan(0.015);
    expect(Math.abs(firstShare(skewed) - 0.2)).toBeLessThan(0.015);
    // Shares that keep capital back still split every request in their proportion.
    expect(Math.abs(firstShare({ ...even, shares: [0.3, 0.3] }) - 0.5)).toBeLessThan(0.015);
  });
});

describe('a live split against the sandbox', () => {
  it("decides each request with its arm's strategy and holds each arm to its capital share", async () => {
    const split = { strategies: ['offer-all', 'split-b'] as [string, string], shares: [0.3, 0.3] as [number, number] };
    harness = await startDaemonHarness({
      strategyFiles: [OFFER_ALL, SPLIT_B],
      sandbox: { startTime: '2026-03-10T12:00:00Z', arrivalsPerHour: 0 },
      balanceCents: 1_000_000,
      risk: { split },
    });
    const h = harness;
    h.sandbox.control.setFaults({ dropWebhookRate: 1 });
    const ids: number[] = [];
    for (let index = 0; index < 24; index++) {
      ids.push(h.sandbox.control.createLoanRequest({ svcColor: 0, loanAmountCents: 100_000, competitorOffers: 0 }).id);
      await h.daemon.poller.poll();
      await h.daemon.pipeline.idle();
    }
    const decisions = ids.map((id) => ({ id, decision: h.store.decisions.get(id) }));
    for (const { id, decision } of decisions) expect(decision?.strategy).toBe(split.strategies[armOf(id, split)]);
    // Each arm: at most 30 % of the 10,000.00 balance committed, and some offers refused for it.
    const book = createShadowSplitRepository(databaseOf(h.store));
    const nowMs = h.sandbox.clock.now();
    for (const strategy of split.strategies) {
      const committed = book.committedCents({ strategy, nowMs, expiryMs: 72 * 3_600_000, dryRun: false });
      expect(committed).toBeGreaterThan(0);
      expect(committed).toBeLessThanOrEqual(300_000);
    }
    const refused = decisions.filter(({ decision }) => decision?.guardCode === 'arm_share');
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0]?.decision?.reasons.at(-1)).toMatch(/^guard arm (offer-all|split-b) committed /);

    // The report's split section: each arm, and an honest "not yet" before any loan resolved.
    const config = join(h.dir, 'split.yaml');
    writeFileSync(config, `db: ${join(h.dir, 'lendbot.db')}\nrisk:\n  split: { strategies: [offer-all, split-b], shares: [0.3, 0.3] }\n`);
    const report = await runCli(['shadow', 'report', '--config', config]);
    expect(report.code).toBe(0);
    expect(report.stdout).toMatch(/offer-all +share 30 % +0 resolved loans +P&L 0\.00/);
    expect(report.stdout).toContain(
      'sequential test (mSPRT, alpha 5 %): not yet: 0 and 0 resolved loans, the test speaks from 30 in each arm',
    );
  });

  it('runs without the split, and says so once, when an arm is not a live strategy', async () => {
    harness = await startDaemonHarness({
      strategyFiles: [OFFER_ALL],
      sandbox: { arrivalsPerHour: 0 },
      risk: { split: { strategies: ['offer-all', 'missing'], shares: [0.5, 0.5] } },
    });
    const h = harness;
    h.sandbox.control.setFaults({ dropWebhookRate: 1 });
    for (let index = 0; index < 3; index++) {
      const request = h.sandbox.control.createLoanRequest({ svcColor: 0, competitorOffers: 0 });
      await h.daemon.poller.poll();
      await h.daemon.pipeline.idle();
      expect(h.store.decisions.get(request.id)?.strategy).toBe('offer-all');
    }
    expect(h.logs.filter((line) => String(line.msg).startsWith('risk.split names strategies'))).toHaveLength(1);
  });
});
