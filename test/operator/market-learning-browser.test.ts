/**
 * What a lender sees of prices that learn (pricing.learning), against a live daemon on the
 * sandbox whose learning strategy has learned two fates (one offer taken, one lost to a cheaper
 * competitor): `lendbot status` lines, `GET /api/market-learning`, and the dashboard's panel in
 * a real browser (Debian's chromium through playwright-core; the browser part is skipped,
 * saying why, without chromium).
 */
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { buildStatusReport } from '../../src/ops/status-report.js';
import { formatStatusText, statusJson } from '../../src/ops/status-text.js';
import { riskLimitsSchema } from '../../src/risk/index.js';
import { launchChromium, skipReason } from '../browser/chromium.js';
import { startDaemonHarness, waitFor, type DaemonHarness } from '../daemon/daemon-harness.js';

const LEARN_ALL = fileURLToPath(new URL('../daemon/fixtures/learn-all.yaml', import.meta.url));
const HOUR = 3_600_000;
const UI_WAIT_MS = 15_000;

interface LearningAnswer {
  strategies: Array<{
    strategy: string;
    version: number;
    evidence: number;
    accepted: number;
    curve: Array<{ rate: number; prior: number; learned: number }>;
  }>;
}

describe('the learned market response in status, the API and the dashboard', { timeout: 60_000 }, () => {
  let harness: DaemonHarness | undefined;
  let browser: Browser | undefined;
  afterAll(async () => {
    await browser?.close();
    await harness?.close();
  });

  it('shows version, evidence and the learned take-up against the prior', async () => {
    harness = await startDaemonHarness({ strategyFiles: [LEARN_ALL], sandbox: { arrivalsPerHour: 0 } });
    const h = harness;
    for (const fields of [{ competitorOffers: 0 }, { competitorRates: [0.031] }]) {
      const request = h.sandbox.control.createLoanRequest({ svcColor: 1, maxInterestRate: 0.6, decisionDelayMs: 2 * HOUR, ...fields });
      await h.sandbox.control.flushWebhooks();
      await waitFor(() => h.store.offers.getByRequest(request.id)?.state === 'placed', `the offer on ${request.id}`);
    }
    await h.daemon.pipeline.idle();
    await h.daemon.runJob('poll');
    h.sandbox.control.advance(3 * HOUR);
    await h.daemon.runJob('poll');
    await h.daemon.runJob('sync');
    await h.daemon.runJob('learn');

    const report = buildStatusReport({
      store: h.store,
      nowMs: h.sandbox.clock.now(),
      limits: riskLimitsSchema.parse({}),
      budgets: [],
      dryRun: false,
    });
    const text = formatStatusText(report);
    expect(text).toMatch(
      /market learned learn-all +v2, 2 offer fates \(1 accepted\); 0 exploring offers cost 0\.00 USD of [\d.]+ USD expected\n/,
    );
    expect(text).toMatch(
      /\n {2}take-up prior +(0\.\d\d ){7}at rates 0\.06 0\.10 0\.14 0\.18 0\.22 0\.26 0\.30 \(typical request: max rate 0\.30, default 0\.10\)\n {2}take-up learned +0\.\d\d( 0\.\d\d){6}\n/,
    );
    expect(statusJson(report).market_learning).toMatchObject([{ strategy: 'learn-all', version: 2, evidence: 2, accepted: 1 }]);

    const base = h.daemon.operatorUrl()!;
    const answer = (await (await fetch(new URL('/api/market-learning', base))).json()) as LearningAnswer;
    expect(answer.strategies).toHaveLength(1);
    expect(answer.strategies[0]).toMatchObject({ strategy: 'learn-all', version: 2, evidence: 2, accepted: 1 });
    // One taken and one lost, at the same borrower and similar rates: the learned curve moved off the prior.
    expect(answer.strategies[0]?.curve.some((point) => Math.abs(point.learned - point.prior) > 0.001)).toBe(true);

    if (skipReason !== undefined) return;
    browser = await launchChromium();
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(base);
    const panel = page.getByTestId('market-learning-learn-all');
    await expect.poll(() => panel.isVisible(), { timeout: UI_WAIT_MS }).toBe(true);
    expect(await panel.getByTestId('market-learning-figures').textContent()).toContain('version 2, learned from 2 offers (1 taken)');
    // Chart.js drew into the canvas (it sizes it to its box).
    await expect
      .poll(() => panel.locator('canvas').evaluate((canvas) => (canvas as unknown as { width: number }).width), { timeout: UI_WAIT_MS })
      .toBeGreaterThan(0);
    expect(problems).toEqual([]);
  });
});
