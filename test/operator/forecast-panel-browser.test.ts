/**
 * The dashboard's "Money coming back" panel in a real browser (Debian's chromium through
 * playwright-core) against a daemon that traded on the sandbox: the summary says what
 * GET /api/cash-flow says, the forecast chart has the 12 months and the API's figures, the idle
 * chart sits on a time axis, and the idle line and its reasons are shown. Skipped, saying why,
 * without chromium.
 */
import type { Browser } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { launchChromium, skipReason } from '../browser/chromium.js';
import { tradeThreeLoans } from './cash-flow-fixture.js';
import { startApiHarness, type ApiHarness } from './api-harness.js';

const UI_WAIT_MS = 15_000;

interface CashFlowBody {
  forecast: {
    loans: number;
    next_month: { month: string; expected_cents: number };
    months: Array<{ month: string; expected_principal_cents: number; expected_interest_cents: number }>;
  };
  idle: { share: number; why: string };
}

describe.skipIf(skipReason !== undefined)('the money-coming-back panel in chromium', { timeout: 90_000 }, () => {
  let h: ApiHarness | undefined;
  let browser: Browser | undefined;
  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  it('draws the forecast and idle cash the API answers', async () => {
    h = await startApiHarness();
    await tradeThreeLoans(h);
    const body = (await (await h.call('/api/cash-flow')).json()) as CashFlowBody;
    expect(body.forecast.loans).toBe(3);

    browser = await launchChromium();
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(h.base);
    const summary = page.getByTestId('forecast-summary');
    await expect.poll(() => summary.textContent(), { timeout: UI_WAIT_MS }).toContain('Expected back in');
    const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
    expect(await summary.textContent()).toContain(
      `Expected back in ${body.forecast.next_month.month}: ${dollars.format(body.forecast.next_month.expected_cents / 100)}`,
    );

    const chart = await page.getByTestId('chart-forecast').evaluate((canvas) => {
      const found = (
        globalThis as unknown as {
          Chart: { getChart(c: unknown): { data: { labels: string[]; datasets: Array<{ label: string; data: number[] }> } } };
        }
      ).Chart.getChart(canvas);
      return { labels: found.data.labels, principal: found.data.datasets[0]?.data, interest: found.data.datasets[1]?.data };
    });
    expect(chart.labels).toEqual(body.forecast.months.map((m) => m.month));
    expect(chart.principal).toEqual(body.forecast.months.map((m) => m.expected_principal_cents));
    expect(chart.interest).toEqual(body.forecast.months.map((m) => m.expected_interest_cents));

    const idleAxis = await page.getByTestId('chart-idle').evaluate((canvas) => {
      type Scale = { type: string; ticks: Array<{ label: string }> };
      const found = (globalThis as unknown as { Chart: { getChart(c: unknown): { scales: { x: Scale } } } }).Chart.getChart(canvas);
      return { type: found.scales.x.type, labels: found.scales.x.ticks.map((t) => t.label) };
    });
    // A true time axis, and its labels say different times (a single sample gets a day around it).
    expect(idleAxis.type).toBe('linear');
    expect(idleAxis.labels.length).toBeGreaterThanOrEqual(2);
    expect(new Set(idleAxis.labels).size).toBe(idleAxis.labels.length);
    expect(await page.getByTestId('idle-now').textContent()).toMatch(
      new RegExp(`^${Math.round(body.idle.share * 100)} % of your money is idle`),
    );
    expect(await page.getByTestId('idle-why').textContent()).toContain(body.idle.why);
    expect(await page.getByTestId('forecast-notes').textContent()).toContain('lent again as in the last 90 days');
    if (process.env.LENDBOT_SCREENSHOT_DIR)
      await page.getByTestId('forecast-section').screenshot({ path: `${process.env.LENDBOT_SCREENSHOT_DIR}/forecast-panel.png` });
    expect(problems).toEqual([]);
  });
});
