/**
 * The dashboard's paper book card in a real browser (Debian's chromium through playwright-core)
 * against a dry-run daemon on the sandbox: the card says nothing was sent, names where its
 * acceptance comes from, and shows the book's lifetime profit and 95 % interval as the overview
 * answers them, and which requests are gone. (test/views/paper-book-view.test.ts compares every
 * figure of the card with the other surfaces.) Skipped,
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

  it('shows the book of a dry run with where its acceptance comes from, its interval and the requests gone', async () => {
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
    expect(await card.locator('h3').textContent()).toBe('Paper book (nothing sent)');
    expect(await page.getByTestId('paper-profit').textContent()).toBe(dollars.format(book.lifetimeProfitCents / 100));
    expect(await page.getByTestId('paper-interval').textContent()).toBe(
      `${dollars.format(book.lifetimeProfit95.lowCents / 100)} to ${dollars.format(book.lifetimeProfit95.highCents / 100)}`,
    );
    // One request taken by another lender, the other's fate still open: the curve, within what one fate allows.
    expect(await page.getByTestId('paper-acceptance').textContent()).toMatch(
      /^assumed curve, within the at most 100\.0 % the fates of 1 paper offer allow \([\d.]+ %; an assumption: nothing was sent\)$/,
    );
    // Three hours of paper offers: no return on the balance yet.
    expect(await page.getByTestId('paper-return').textContent()).toBe('None yet on the balance of $10,000.00');
    const text = (await card.textContent()) ?? '';
    expect(text).toContain('2 (1 still listed, 1 gone, 0 not scanned since)');
    expect(await page.getByTestId('paper-words').textContent()).toMatch(
      /^acceptance [\d.]+ % is the strategy's assumption, not measured: nothing was sent; /,
    );
    expect(problems).toEqual([]);
  });
});
