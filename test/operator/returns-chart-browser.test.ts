/**
 * The dashboard's returns charts in chromium, on a daemon whose sandbox loans were repaid at
 * uneven dates: each point sits at its date on a true time axis (gaps in time are gaps on the
 * page), the date ticks are distinct and do not overlap, equity rises with interest before any
 * loan is repaid in full, and the notes under the charts speak plain words.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReturnsAnswer } from '../../src/operator/api/api-types.js';
import { launchChromium, skipReason } from '../browser/chromium.js';
import { DAY, HOUR } from '../sandbox/sandbox-fixture.js';
import { startApiHarness, type ApiHarness } from './api-harness.js';

interface DrawnChart {
  xType: string;
  points: Array<{ x: number; px: number }>;
  ticks: Array<{ label: string; left: number; right: number }>;
}

describe.skipIf(skipReason !== undefined)('the returns charts in chromium', { timeout: 60_000 }, () => {
  let h: ApiHarness;
  let browser: Browser;
  let page: Page;
  let returns: ReturnsAnswer;

  beforeAll(async () => {
    h = await startApiHarness();
    for (const lateDays of [[0, 9], [3]])
      h.makeRequest({ decisionDelayMs: HOUR, loanTerms: 6, loanAmountCents: 100_000, repayProbability: 1, missedMonth: null, lateDays });
    await h.daemon.runJob('poll');
    // Steps of uneven length: payments land on dates a fixed-width axis would misplace.
    for (const days of [3, 30, 5, 40, 12]) {
      h.sandbox.control.advance(days * DAY);
      await h.daemon.runJob('sync');
    }
    await h.daemon.runJob('balance');
    returns = (await (await h.asOperator('/api/returns')).json()) as ReturnsAnswer;
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await page.goto(h.base);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  /** The chart's x scale and its points as Chart.js drew them. */
  const drawn = (testid: string): Promise<DrawnChart> =>
    page.evaluate((id) => {
      interface ChartLike {
        scales: {
          x: {
            type: string;
            ticks: Array<{ value: number }>;
            getPixelForValue(v: number): number;
            ctx: { font: string; measureText(text: string): { width: number } };
          };
        };
        getDatasetMeta(i: number): { data: Array<{ x: number }> };
        data: { datasets: Array<{ data: Array<{ x: number }> }> };
        options: { scales: { x: { ticks: { callback: (v: number) => string } } } };
      }
      // The page's globals, typed here (the tests compile without the DOM library).
      const page = globalThis as unknown as {
        document: { querySelector(selector: string): unknown };
        Chart: { getChart(canvas: unknown): ChartLike | undefined };
      };
      const chart = page.Chart.getChart(page.document.querySelector(`[data-testid="${id}"]`));
      if (chart === undefined) throw new Error(`no chart on ${id}`);
      const scale = chart.scales.x;
      const meta = chart.getDatasetMeta(0);
      const points = (chart.data.datasets[0]?.data ?? []).map((point, i) => ({ x: point.x, px: meta.data[i]?.x ?? Number.NaN }));
      const font = '12px sans-serif';
      scale.ctx.font = font;
      const ticks = scale.ticks.map((tick) => {
        const label = chart.options.scales.x.ticks.callback(tick.value);
        const center = scale.getPixelForValue(tick.value);
        const width = scale.ctx.measureText(label).width;
        return { label, left: center - width / 2, right: center + width / 2 };
      });
      return { xType: scale.type, points, ticks };
    }, testid);

  it('places each point at its date: pixel gaps follow time gaps', async () => {
    expect(returns.equity.length).toBeGreaterThan(3);
    await expect.poll(async () => (await drawn('chart-equity')).points.length, { timeout: 15_000 }).toBe(returns.equity.length);
    const chart = await drawn('chart-equity');
    expect(chart.xType).toBe('linear');
    const [first, last] = [chart.points[0]!, chart.points.at(-1)!];
    for (const point of chart.points) {
      const byTime = (point.x - first.x) / (last.x - first.x);
      const byPixel = (point.px - first.px) / (last.px - first.px);
      expect(Math.abs(byTime - byPixel)).toBeLessThan(0.01);
    }
  });

  it('labels the time axis with distinct dates that do not run together', async () => {
    for (const id of ['chart-equity', 'chart-interest']) {
      const { ticks } = await drawn(id);
      expect(ticks.length).toBeGreaterThan(1);
      expect(ticks.every((tick) => /^\d{4}-\d{2}-\d{2}$/.test(tick.label))).toBe(true);
      expect(new Set(ticks.map((tick) => tick.label)).size).toBe(ticks.length);
      for (let i = 1; i < ticks.length; i += 1) expect(ticks[i]!.left, `${id} ${ticks[i]!.label}`).toBeGreaterThan(ticks[i - 1]!.right);
    }
  });

  it('shows equity rising with interest while the loans still run, in plain words', async () => {
    const start = returns.equity[0]!.equityCents;
    expect(returns.totals.outstandingCents).toBeGreaterThan(0);
    expect(returns.totals.interestCents).toBeGreaterThan(0);
    expect(returns.totals.equityCents).toBe(
      start + returns.totals.interestCents + returns.totals.lateFeesReceivedCents - returns.totals.expectedLossCents,
    );
    const totals = await page.getByTestId('returns-totals').textContent();
    expect(totals).toContain('loans out');
    const notes = (await page.getByTestId('returns-notes').allTextContents()).join(' ');
    expect(notes).toContain('Equity is cash plus the principal still out on loans');
    expect(notes).not.toMatch(/jobs\.|balance_refresh|reconcile/);
  });
});
