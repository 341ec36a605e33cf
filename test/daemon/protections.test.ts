/**
 * The account-refusal protection end to end: the sandbox refuses offers because the investor is
 * borrowing (spec 4.2 rule 2); after two refusals the daemon stops offering, says why in every
 * decision, and `lendbot resume` lifts the pause.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildStatusReport } from '../../src/ops/status-report.js';
import { formatStatusText } from '../../src/ops/status-text.js';
import { riskLimitsSchema } from '../../src/risk/index.js';
import { runCli } from '../cli/run-cli.js';
import { startDaemonHarness, type DaemonHarness } from './daemon-harness.js';

let harness: DaemonHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('the account-refusal protection', () => {
  it('pauses new offers after two account refusals, explains every skip, and lifts at lendbot resume', { timeout: 60_000 }, async () => {
    harness = await startDaemonHarness();
    const h = harness;
    h.sandbox.control.setInvestor({ borrowing: true });
    const requests = [0, 1, 2].map(() => h.sandbox.control.createLoanRequest({ svcColor: 1, maxInterestRate: 0.6, competitorOffers: 0 }));
    await h.daemon.poller.poll();

    const [first, second, third] = requests.map((request) => h.store.decisions.get(request.id));
    expect(first?.placement).toBe('refused');
    expect(second?.placement).toBe('refused');
    expect(second?.reasons.at(-1)).toMatch(/^service refused: RULE_REFUSED: /);
    // The third is never sent: the guard refuses it with the protection's reason.
    expect(third).toMatchObject({ action: 'skip', guardCode: 'paused', placement: null });
    expect(third?.reasons.at(-1)).toMatch(
      /^guard paused: account_refusal protection: account refused offers 2 times in 30 min: ".+"; paused until .+ or lendbot resume$/,
    );
    expect(h.sandbox.control.offers()).toHaveLength(0);

    // What `lendbot status` reports (on the market's clock: the sandbox's is not the wall clock).
    const report = buildStatusReport({
      store: h.store,
      nowMs: h.sandbox.clock.now(),
      limits: riskLimitsSchema.parse({}),
      budgets: [],
      dryRun: false,
    });
    expect(report.pause?.kind).toBe('account_refusal');
    expect(formatStatusText(report)).toMatch(/\nprotections +PAUSED: account_refusal protection: /);

    const resumed = await runCli(['resume', '--db', join(h.dir, 'lendbot.db')]);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toMatch(/^lifted the account_refusal pause \(since .+\): account_refusal protection: /);
    expect((await runCli(['resume', '--db', join(h.dir, 'lendbot.db')])).stdout).toBe(
      'no pause in force; new offers are not paused by a protection\n',
    );

    h.sandbox.control.setInvestor({ borrowing: false });
    const next = h.sandbox.control.createLoanRequest({ svcColor: 1, maxInterestRate: 0.6, competitorOffers: 0 });
    await h.daemon.poller.poll();
    expect(h.store.decisions.get(next.id)).toMatchObject({ action: 'offer', placement: 'placed' });
  });
});
