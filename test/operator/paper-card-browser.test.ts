/**
 * The dashboard's paper book card in a real browser (Debian's chromium through playwright-core)
 * against a dry-run daemon on the sandbox: the card says "modelled" and shows the book's expected
 * profit and 95 % interval as the overview answers them, and which requests are gone. Skipped,
 * saying why, without chromium (dashboard-browser.test.ts has the LENDBOT_REQUIRE_BROWSER check).
 */
import type { Browser } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import type { OverviewAnswer } from '../../src/operator/api/api-types.js';
import { launchChromium, skipReason } from '../browser/chromium.js';
import { startDaemonHarness, type DaemonHarness } from '../daemon/daemon-harness.js';

const HOUR = 3_600_000;
const UI_WAIT_MS = 15_000;

describe.skipIf(skipReason !== undefined)('the paper book card in chromium', { timeout: 60_000 }, () => {
  let harness: DaemonHarness | undefined;
  let browser: Browser | undefined;
  afterAll(async () => {
    await browser?.close();
    await harness?.close();
  });

  it('shows the modelled book of a dry run with its interval and the requests gone', async () => {
    harness = await startDaemonHarness({ dryRun: true, sandbox: { arrivalsPerHour: 0 } });
    const h = harness;
    const decide = { decisionDelayMs: 2 * HOUR, svcColor: 1, maxInterestRate: 0.6 };
    h.sandbox.control.createLoanRequest({ ...decide, competitorRates: [0.031] });
    h.sandbox.control.createLoanRequest({ ...decide, competitorOffers: 0, takeUp: 0 });
    await h.daemon.runJob('poll');
    h.sandbox.control.advance(3 * HOUR);
    await h.daemon.runJob('poll');
    const base = h.daemon.operatorUrl()!;
    const overview = (await (await fetch(new URL('/api/overview', base))).json()) as OverviewAnswer;
    const book = overview.status.paperBook!;

    browser = await launchChromium();
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(base);
    const card = page.getByTestId('card-paper-book');
    await expect.poll(() => card.isVisible(), { timeout: UI_WAIT_MS }).toBe(true);
    const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
    expect(await card.locator('h3').textContent()).toBe('Paper book (modelled)');
    expect(await page.getByTestId('paper-profit').textContent()).toBe(dollars.format(book.expectedProfitCents / 100));
    expect(await page.getByTestId('paper-interval').textContent()).toBe(
      `${dollars.format(book.interval95.lowCents / 100)} to ${dollars.format(book.interval95.highCents / 100)}`,
    );
    const text = (await card.textContent()) ?? '';
    expect(text).toContain('2 (1 still listed, 1 gone, 0 not scanned since)');
    expect(text).toContain('Modelled: nothing was sent.');
    expect(problems).toEqual([]);
  });
});
