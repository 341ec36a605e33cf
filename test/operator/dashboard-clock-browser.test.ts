/**
 * The dashboard in chromium after a short sandbox run, told the sandbox's speed (a day a
 * second): one clock, named with its speed; the offers and skips of the last 24 hours of the
 * run's clock, as the store counts them; the last poll's age said in the run's clock and in real
 * time; a filter skip's explanation saying it was not scored because of the filter; an offer's
 * price curve drawn on a canvas by Chart.js with the chosen rate marked; its reasons in plain
 * words; the borrower as a table, and no `contributions` among the features. The page must not
 * log an error.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DecisionsAnswer, OverviewAnswer } from '../../src/operator/api/api-types.js';
import { LAST_POLL_KEY } from '../../src/store/index.js';
import { browserRequired, launchChromium, skipReason } from '../browser/chromium.js';
import { startDashboardDaemon, type DashboardDaemon } from './dashboard-daemon.js';
import { CASHFLOW } from './operator-harness.js';

const UI_WAIT_MS = 15_000;
const DAY_MS = 86_400_000;

if (skipReason !== undefined && !browserRequired) console.warn(`dashboard-clock-browser.test.ts: ${skipReason}`);

describe.skipIf(skipReason !== undefined)('the dashboard’s clock, counts and explanations in chromium', { timeout: 90_000 }, () => {
  let bot: DashboardDaemon;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    // cashflow alone: its filters skip some requests, its expected-profit pricing offers on others.
    bot = await startDashboardDaemon({ strategies: [CASHFLOW], clockSpeed: 86_400, arrivalsPerHour: 20 });
    await bot.advance(3);
    // The last poll three simulated days ago: three real seconds at this speed.
    bot.store.state.set(LAST_POLL_KEY, new Date(bot.sandbox.clock.now() - 3 * DAY_MS).toISOString(), bot.sandbox.clock.now());
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, timezoneId: 'America/New_York', locale: 'en-US' });
    page = await context.newPage();
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

  const decisions = async () => (await bot.api<DecisionsAnswer>('/api/decisions?limit=200')).decisions;

  it('names the one clock the page is in, with the sandbox speed', async () => {
    await expect
      .poll(() => page.getByTestId('run-clock').textContent(), { timeout: UI_WAIT_MS })
      .toBe('Run clock: simulated, 1 day = 1 s (86,400× real time); times in UTC, 24-hour');
    const at = await page.getByTestId('overview-at').textContent();
    expect(at).toMatch(/^as of \d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
    // No browser-local 12-hour time anywhere (the page runs in New York here).
    expect(await page.locator('main').innerText()).not.toMatch(/\d:\d\d(:\d\d)? ?(AM|PM)/);
  });

  it('counts the offers and skips of the last 24 hours of the run’s clock', async () => {
    const overview = await bot.api<OverviewAnswer>('/api/overview');
    const nowMs = Date.parse(overview.status.at);
    const counted = bot.store.decisions.countByAction({ sinceMs: nowMs - DAY_MS, untilMs: nowMs + 1 });
    expect(overview.last24h).toEqual(counted);
    expect(counted.offer + counted.skip).toBeGreaterThan(0);
    await expect.poll(() => page.getByTestId('offers-24h').textContent(), { timeout: UI_WAIT_MS }).toBe(String(counted.offer));
    expect(await page.getByTestId('skips-24h').textContent()).toBe(
      `${counted.skip} ${counted.skip === 1 ? 'request' : 'requests'} skipped in the same 24 hours of the run's clock`,
    );
    expect(await page.getByTestId('card-offers-today').locator('h3').textContent()).toBe('Offers, last 24 hours');
  });

  it('says how long ago the last poll was by the run’s clock, and in real time', async () => {
    await expect.poll(() => page.getByTestId('last-poll').textContent(), { timeout: UI_WAIT_MS }).toBe('3 d ago (3 s real time)');
    expect(await page.getByTestId('last-poll').getAttribute('title')).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
  });

  it('explains a filter skip as a filter skip', async () => {
    const skip = (await decisions()).find((row) => row.action === 'skip' && row.reasons.some((reason) => reason.startsWith('filter ')));
    if (skip === undefined) throw new Error('the run made no filter skip');
    await page.locator(`[data-testid="decision-row"][data-request-id="${skip.loan_request_id}"]`).click();
    const notScored = page.getByTestId('explanation-not-scored');
    await notScored.waitFor({ timeout: UI_WAIT_MS });
    expect(await notScored.textContent()).toBe(
      `Not scored: the request did not pass the strategy's filters, so it stopped before the score: ${skip.why}.`,
    );
    expect(await page.getByTestId('explanation-body').innerText()).not.toContain('no score lines');
    await page.keyboard.press('Escape');
  });

  it('draws an offer’s price curve with the chosen rate marked, and shows the borrower as a table', async () => {
    const offer = (await decisions()).find((row) => row.action === 'offer');
    if (offer === undefined) throw new Error('the run made no offer');
    await page.locator(`[data-testid="decision-row"][data-request-id="${offer.loan_request_id}"]`).click();
    const canvas = page.getByTestId('explanation-curve-canvas');
    await canvas.waitFor({ timeout: UI_WAIT_MS });
    const drawn = await canvas.evaluate((element) => {
      const chart = (
        globalThis as unknown as {
          Chart: {
            getChart(canvas: unknown): { data: { datasets: Array<{ label: string; data: Array<{ x: number; y: number }> }> } } | undefined;
          };
        }
      ).Chart.getChart(element);
      return chart?.data.datasets.map((dataset) => ({ label: dataset.label, points: dataset.data.length, x: dataset.data[0]?.x ?? null }));
    });
    expect(drawn?.map((dataset) => dataset.label)).toEqual([
      'P(accept) × profit',
      'Profit if accepted',
      'P(accept)',
      expect.stringMatching(/^Chosen rate \d+(\.\d+)? %$/),
    ]);
    expect(drawn?.[0]?.points).toBeGreaterThan(20);
    // The marked point is the offer's own rate.
    expect(drawn?.[3]).toEqual({ label: expect.any(String), points: 1, x: offer.rate });
    const box = await canvas.boundingBox();
    expect(box?.width).toBeGreaterThan(200);
    expect(box?.height).toBeGreaterThan(150);

    // The reasons in plain words, the machine text on hover.
    const reasons = page.getByTestId('explanation-reasons').locator('li');
    expect(await reasons.first().textContent()).toMatch(/^chance of full repayment \d+(\.\d+)? %$/);
    expect(await reasons.first().getAttribute('title')).toMatch(/^score probability 0\.\d+$/);
    const features = await page.getByTestId('explanation-features-table').innerText();
    expect(features).not.toContain('contributions');
    const borrower = await page.getByTestId('explanation-borrower-table').innerText();
    expect(borrower).toContain('Credit score');
    const request = await page.getByTestId('explanation-request-table').innerText();
    expect(request).toMatch(/Amount\s+\$[\d,]+\.\d\d/);
    expect(request).not.toContain('{');
    // The steps' times under names a lender reads, not the pipeline's.
    const timings = await page.getByTestId('explanation-timings-table').innerText();
    expect(timings).toContain('Scoring and pricing');
    expect(timings).not.toMatch(/^(enrich|decide)\b/m);
    await page.keyboard.press('Escape');
  });

  it('logged no error', () => {
    expect(problems).toEqual([]);
  });
});
