/**
 * The cash hurdle live: a daemon on the sandbox whose strategy follows cash prices the same
 * request higher when its free cash cannot cover the demand it has seen, lower when cash sits
 * idle, and says so in the stored decision; the offer-all strategy (no cash_hurdle) is priced as written.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { OFFER_ALL, startDaemonHarness, type DaemonHarness } from './daemon-harness.js';

let harness: DaemonHarness | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await harness?.close();
  harness = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** offer-all with `pricing.cash_hurdle` on. */
function followsCash(): string {
  const dir = mkdtempSync(join(tmpdir(), 'lendbot-cash-'));
  dirs.push(dir);
  const file = join(dir, 'offer-all-cash.yaml');
  writeFileSync(
    file,
    `${readFileSync(OFFER_ALL, 'utf8')}  cash_hurdle: { enabled: true, max_raise: 0.1, max_cut: 0.04, window_days: 14 }\n`,
  );
  return file;
}

/** Decides one fresh request by a poll and returns its stored decision. */
async function decideOne(h: DaemonHarness) {
  const request = h.sandbox.control.createLoanRequest({ svcColor: 1, maxInterestRate: 0.6, competitorOffers: 0, loanAmountCents: 100_000 });
  await h.daemon.runJob('poll');
  await h.daemon.pipeline.idle();
  return h.store.decisions.get(request.id)!;
}

describe('the cash hurdle in the daemon', () => {
  it('raises the hurdle when free cash binds and cuts it when cash sits idle', async () => {
    harness = await startDaemonHarness({ strategyFiles: [followsCash()], balanceCents: 100_000_000, sandbox: { arrivalsPerHour: 0 } });
    const idle = await decideOne(harness);
    expect(idle.reasons.some((reason) => reason.startsWith('price cash_hurdle -0.04'))).toBe(true);
    await harness.close();

    // $1,500 against $1,000+ requests: after the first offer holds its total, no free cash is left.
    harness = await startDaemonHarness({ strategyFiles: [followsCash()], balanceCents: 150_000, sandbox: { arrivalsPerHour: 0 } });
    await decideOne(harness);
    const scarce = await decideOne(harness);
    expect(scarce.reasons.some((reason) => reason.startsWith('price cash_hurdle +0.1000'))).toBe(true);
    expect(scarce.rate ?? 0).toBeGreaterThan(idle.rate ?? 1);
  });

  it('leaves a strategy without cash_hurdle priced as written', async () => {
    harness = await startDaemonHarness({ strategyFiles: [OFFER_ALL], balanceCents: 150_000, sandbox: { arrivalsPerHour: 0 } });
    const decision = await decideOne(harness);
    expect(decision.reasons.some((reason) => reason.includes('cash_hurdle'))).toBe(false);
  });
});
