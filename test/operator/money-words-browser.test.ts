/**
 * What a lender reads first on the dashboard, in chromium (Debian's, through playwright-core)
 * against a daemon on the sandbox at a day a second (issue 36, item 7): the money card leads with
 * equity, what the account is worth, in large type, the cash under it; the exposure card says
 * what it counts (interest not yet earned included); counts take their singular ("1 offer"); a
 * cap of nothing reads as words, not "$0.00 of $0.00"; a time kept in real time (a report
 * file's) says so and is shown on the run's clock. The page must not log an error.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OverviewAnswer } from '../../src/operator/api/api-types.js';
import { browserRequired, launchChromium, skipReason } from '../browser/chromium.js';
import { startDashboardDaemon, type DashboardDaemon } from './dashboard-daemon.js';

const UI_WAIT_MS = 15_000;
const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

if (skipReason !== undefined && !browserRequired) console.warn(`money-words-browser.test.ts: ${skipReason}`);

describe.skipIf(skipReason !== undefined)("the dashboard's money words in chromium", { timeout: 90_000 }, () => {
  let bot: DashboardDaemon;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    bot = await startDashboardDaemon({ clockSpeed: 86_400, arrivalsPerHour: 6 });
    await bot.advance(2);
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    await page.goto(bot.url);
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await bot?.close();
  });

  it('leads the money card with equity in large type, the cash under it', async () => {
    const { status } = await bot.api<OverviewAnswer>('/api/overview');
    const card = page.getByTestId('card-balance');
    await expect.poll(() => card.locator('h3').textContent(), { timeout: UI_WAIT_MS }).toBe('Your money');
    const equity = status.equity;
    if (equity === null) throw new Error('the overview has no equity');
    const big = card.locator('p.big');
    expect(await big.count()).toBe(1);
    expect(await big.getAttribute('data-testid')).toBe('equity');
    await expect.poll(() => big.textContent(), { timeout: UI_WAIT_MS }).toBe(dollars.format(equity.equityCents / 100));
    expect(await card.getByTestId('equity-parts').textContent()).toBe(
      `Equity, what the account is worth: cash ${dollars.format(equity.cashCents / 100)} + loans out ${dollars.format(equity.outstandingCents / 100)} − expected losses ${dollars.format(equity.expectedLossCents / 100)}`,
    );
    // The cash is a row under it, named as what it is, in the card's ordinary type.
    expect(await card.innerText()).toMatch(/Cash in the account\s+\$[\d,]+\.\d\d/);
    // Evaluated as text in the page: the test's own types know no DOM.
    const fontSize = (testId: string) =>
      page.evaluate<number>(
        `Number.parseFloat(getComputedStyle(document.querySelector('[data-testid="card-balance"] [data-testid="${testId}"]')).fontSize)`,
      );
    const [equitySize, cashSize] = [await fontSize('equity'), await fontSize('balance')];
    expect(equitySize).toBeGreaterThan(cashSize * 1.3);
  });

  it('says what the exposure counts', async () => {
    expect(await page.getByTestId('exposure-means').textContent()).toBe(
      "What is at stake: open offers' totals and what borrowers still owe on loans, interest not yet earned included (so it can be above equity).",
    );
  });

  it('says counts in the singular for one, and a budget of nothing in words', async () => {
    const card = page.getByTestId('card-offers-today');
    const text = await card.innerText();
    expect(text).not.toMatch(/\b1 (offers|requests)\b/);
    expect(text).toMatch(/Today's caps \(UTC day\): \d+ (offer|offers) \(no cap\)/);
    // offer-all buys no data (a budget of 0): not "$0.00 of $0.00".
    const spend = await page.getByTestId('card-data-spend').innerText();
    expect(spend).toMatch(/offer-all\s+buys no paid data/);
    expect(spend).not.toContain('$0.00 of $0.00');
    const main = await page.locator('main').innerText();
    expect(main).not.toMatch(/\b1 (offers|requests|loans|payments)\b/);
  });

  it("shows a report file's time on the run's clock, labelled, beside the real time", async () => {
    const item = page.getByTestId('reports-list').locator('li').first();
    await expect
      .poll(() => item.textContent(), { timeout: UI_WAIT_MS })
      .toMatch(/written \d{4}-\d\d-\d\d \d\d:\d\d UTC on the run's clock \(\d{4}-\d\d-\d\d \d\d:\d\d UTC real time\)$/);
    expect(problems).toEqual([]);
  });
});
