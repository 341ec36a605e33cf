/**
 * The cash-flow wing (issue 38, item 2): the daemon decides and places with it left out. Both
 * runs below take a webhook's request and a polled one on the same sandbox; the second leaves the
 * wing unattached (DaemonOverrides.cashFlow = false, what deleting its attach line in
 * src/daemon/daemon.ts does). It still turns both into guarded offers, no idle-cash job exists
 * and no idle sample is recorded, while the status report every view reads still has the
 * forecast and idle cash now (src/money/cash-flow-status.ts stays in the core: one truth).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { IDLE_SAMPLES_KEY } from '../../src/money/idle-cash.js';
import { buildStatusReport } from '../../src/ops/status-report.js';
import { riskLimitsSchema } from '../../src/risk/index.js';
import { offerHookedAndPolled, startDaemonHarness, type DaemonHarness } from './daemon-harness.js';

let harness: DaemonHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** The status's idle cash now, as `lendbot status`, the dashboard and the metrics read it. */
function idleShareNow(h: DaemonHarness): number {
  const limits = riskLimitsSchema.parse({});
  return buildStatusReport({ store: h.store, nowMs: Date.now(), limits, budgets: [], dryRun: false }).cashFlow.idle.share;
}

describe('the daemon with the cash-flow wing left out', () => {
  it('with the wing attached, the idle-cash job records a sample of idle money (the control)', async () => {
    harness = await startDaemonHarness();
    harness.sandbox.control.advance(1000);
    await offerHookedAndPolled(harness);
    await harness.daemon.runJob('idle-cash');
    expect(harness.store.state.get(IDLE_SAMPLES_KEY)).toBeDefined();
    expect(idleShareNow(harness)).toBeGreaterThanOrEqual(0);
  });

  it('decides and places from a webhook and a poll, with no idle-cash job and the status whole', async () => {
    harness = await startDaemonHarness({ cashFlowWing: false });
    harness.sandbox.control.advance(1000);
    await offerHookedAndPolled(harness);
    await expect(harness.daemon.runJob('idle-cash')).rejects.toThrow(/no job "idle-cash"/);
    expect(harness.store.state.get(IDLE_SAMPLES_KEY)).toBeUndefined();
    expect(idleShareNow(harness)).toBeGreaterThanOrEqual(0);
  });
});
