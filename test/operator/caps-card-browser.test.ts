/**
 * The dashboard's exposure card in a real browser (Debian's chromium through playwright-core)
 * against a daemon on the sandbox whose cap on open exposure is a share of the capital: the card
 * shows the cap in dollars as the guard reads it now, and says it is a share of the capital.
 * Skipped, saying why, without chromium (dashboard-browser.test.ts has the LENDBOT_REQUIRE_BROWSER check).
 */
import type { Browser } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import type { OverviewAnswer } from '../../src/operator/api/api-types.js';
import { launchChromium, skipReason } from '../browser/chromium.js';
import { startDaemonHarness, type DaemonHarness } from '../daemon/daemon-harness.js';

const UI_WAIT_MS = 15_000;

describe.skipIf(skipReason !== undefined)('a cap as a share of the capital on the dashboard', { timeout: 60_000 }, () => {
  let harness: DaemonHarness | undefined;
  let browser: Browser | undefined;
  afterAll(async () => {
    await browser?.close();
    await harness?.close();
  });

  it('shows the exposure cap in dollars for the capital now, and its share', async () => {
    harness = await startDaemonHarness({ risk: { max_open_exposure: { share: 0.9 } }, sandbox: { arrivalsPerHour: 0 } });
    const h = harness;
    h.sandbox.control.createLoanRequest({ svcColor: 1, competitorOffers: 0 });
    await h.daemon.runJob('balance');
    await h.daemon.runJob('poll');
    const base = h.daemon.operatorUrl()!;
    const overview = (await (await fetch(new URL('/api/overview', base))).json()) as OverviewAnswer;
    const { status } = overview;
    // One offer placed: its money is reserved, still in the balance, so the capital is the balance.
    expect(status.exposure.totalCents).toBeGreaterThan(0);
    expect(overview.limits.capitalCents).toBe(status.balanceCents);
    expect(status.exposure.maxShare).toBe(0.9);
    expect(status.exposure.maxCents).toBe(Math.floor(0.9 * status.balanceCents));
    expect(overview.limits.maxExposureCents).toBe(status.exposure.maxCents);

    browser = await launchChromium();
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(base);
    const card = page.getByTestId('card-exposure');
    await expect.poll(() => card.isVisible(), { timeout: UI_WAIT_MS }).toBe(true);
    const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
    await expect
      .poll(() => card.locator('p.sub').first().textContent(), { timeout: UI_WAIT_MS })
      .toBe(
        `of ${dollars.format((status.exposure.maxCents ?? 0) / 100)} open at most (90 % of the capital, ${dollars.format(status.capitalCents / 100)})`,
      );
    expect(problems).toEqual([]);
  });
});
