/**
 * The HTML backtest report in a real browser (Debian's Chromium driven by playwright-core),
 * opened from disk as a user would: every chart is drawn with pixels on its canvas, nothing
 * throws, the loans table is complete, the page fits a narrow window, and a hostile strategy name
 * runs nothing. Skipped when Chromium is missing, unless LENDBOT_REQUIRE_BROWSER=1.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BacktestResult } from '../../src/backtest/backtest-result.js';
import { backtestHtml } from '../../src/backtest/report/html-report.js';
import { runBacktest } from '../../src/backtest/run-backtest.js';
import { browserRequired, launchChromium, skipReason } from '../browser/chromium.js';
import { CERTAIN_MARKET, syntheticRecording } from './recording-fixtures.js';
import { FLAT_STRATEGY_YAML, flatStrategy } from './strategy-fixtures.js';

if (skipReason !== undefined && !browserRequired) console.warn(`report-browser.test.ts: ${skipReason}`);

describe('the browser of the report test', () => {
  it.runIf(browserRequired)('is installed where LENDBOT_REQUIRE_BROWSER=1 says it must be', () => {
    expect(skipReason).toBeUndefined();
  });
});

describe.skipIf(skipReason !== undefined)('the HTML report in Chromium', () => {
  let browser: Browser;
  let dir: string;
  const lines = syntheticRecording(400, 7, (low, random) => (low < 620 && random() < 0.5 ? 0.4 : 1), { spacingHours: 6 });
  const strict = flatStrategy(FLAT_STRATEGY_YAML.replace('name: flat', 'name: strict').replace('value: 560', 'value: 700'), 'strict.yaml');
  const results = [flatStrategy(), strict].map((s) =>
    runBacktest(lines, [s], { startingBalanceCents: 10_000_000, market: CERTAIN_MARKET }),
  );

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lendbot-report-browser-'));
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** Opens a report from a file; returns the page and the errors it threw. */
  async function open(name: string, report: BacktestResult[], width = 1200): Promise<{ page: Page; errors: string[] }> {
    const file = join(dir, name);
    await writeFile(file, backtestHtml(report, 'synthetic.jsonl'));
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    // Offline, as from disk: any request to the network fails the test.
    await page.route(/^https?:/, async (route) => {
      errors.push(`network request ${route.request().url()}`);
      await route.abort();
    });
    await page.goto(pathToFileURL(file).href);
    await page.waitForSelector('body[data-charts-drawn]');
    return { page, errors };
  }

  it('draws every chart canvas with no page errors', async () => {
    const { page, errors } = await open('two.html', results);
    const charts = await page.$$eval('canvas', (canvases) =>
      canvases.map((canvas) => {
        const context = canvas.getContext('2d');
        const pixels = context?.getImageData(0, 0, canvas.width, canvas.height).data ?? new Uint8ClampedArray();
        let painted = 0;
        for (let i = 3; i < pixels.length; i += 4) if ((pixels[i] ?? 0) > 0) painted += 1;
        // Chart.js keeps each chart reachable from its canvas.
        const chart = (
          globalThis as unknown as { Chart: { getChart(c: unknown): { data: { datasets: unknown[] } } | undefined } }
        ).Chart.getChart(canvas);
        return { id: canvas.id, painted, datasets: chart?.data.datasets.length ?? 0, width: canvas.clientWidth };
      }),
    );
    expect(charts.map((c) => c.id)).toEqual([
      'chart-equity',
      'chart-drawdown',
      'chart-idle-cash',
      'chart-default-rate-by-risk',
      'chart-return-by-risk',
      'chart-offered-rates',
    ]);
    for (const chart of charts) {
      expect(chart.datasets, chart.id).toBe(2);
      expect(chart.painted, chart.id).toBeGreaterThan(1000);
    }
    expect(await page.getAttribute('body', 'data-charts-drawn')).toBe('6');
    expect(await page.locator('table.loans tbody tr').count()).toBe(results.reduce((sum, r) => sum + r.summary.funded, 0));
    expect(errors).toEqual([]);
    await page.close();
  });

  it('fits a narrow window: charts shrink to it', async () => {
    const { page, errors } = await open('narrow.html', results, 480);
    const widths = await page.$$eval('canvas', (canvases) => canvases.map((c) => c.getBoundingClientRect().right));
    for (const right of widths) expect(right).toBeLessThanOrEqual(480);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('runs nothing hidden in a strategy name', async () => {
    const evil = '</script><script>document.title="pwned"</script>';
    const [first] = results;
    if (!first) throw new Error('no run');
    const renamed: BacktestResult = { ...first, strategies: first.strategies.map((s) => ({ ...s, name: evil })) };
    const { page, errors } = await open('evil.html', [renamed]);
    expect(await page.title()).toBe(`lendbot backtest: ${evil} on synthetic.jsonl`);
    expect(await page.locator('table.comparison thead th').nth(1).textContent()).toBe(evil);
    expect(errors).toEqual([]);
    await page.close();
  });
});
