/**
 * The HTML backtest report's layout in a real browser (Debian's Chromium, playwright-core), on a
 * real sandbox export backtested over two years of cash flows: at a narrow, the usual (1,280 px)
 * and a wide window, no two x-axis tick labels of any chart overlap, and every column of every
 * table is visible (at 1,280 px and wider no table is cut by its box or the window). Skipped
 * when Chromium is missing, unless LENDBOT_REQUIRE_BROWSER=1.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backtestHtml, loadRecording, runDraws, runSensitivity, runWorlds, type PreparedRecording } from '../../src/backtest/index.js';
import { strategyCalibration } from '../../src/backtest/calibration/index.js';
import { withLine } from '../../src/backtest/prepared-recording.js';
import { loadStrategyFile } from '../../src/engine/index.js';
import { exportSandboxRecording } from '../../src/sandbox/index.js';
import { launchChromium, skipReason } from '../browser/chromium.js';

/** What the page reports about one chart's x axis: each tick label's box along the axis. */
interface AxisLabels {
  chart: string;
  rotation: number;
  labels: Array<{ text: string; left: number; right: number }>;
}

/** A table cell that is not fully visible: outside its scrolling box or the window. */
interface CutCell {
  table: string;
  column: number;
  text: string;
  right: number;
  visibleRight: number;
}

describe.skipIf(skipReason !== undefined)('the HTML report layout in Chromium', () => {
  let browser: Browser;
  let dir: string;
  let file: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lendbot-report-layout-'));
    const data = join(dir, 'market.jsonl');
    await exportSandboxRecording(data, { seed: 1, requests: 1500, arrivalsPerHour: 3 });
    const recording = await loadRecording(data, {}, () => undefined);
    const strategies = [await loadStrategyFile('strategies/balanced.yaml'), await loadStrategyFile('strategies/examples/naive.yaml')];
    const settings = { startingBalanceCents: 9_000_000, market: {}, recordDecisions: false };
    const runs = strategies.map((s) => runDraws(recording, [s], settings, [1, 2]));
    runs.forEach((run, i) => (run.first.calibration = strategies.slice(i, i + 1).map((s) => strategyCalibration(recording, s))));
    const sensitivity = strategies.map((s) => runSensitivity(recording, [s], settings, [1, 2]));
    // Without the recorded reservation rates the band across borrower worlds has its table too.
    const unrecorded: PreparedRecording = {
      duplicates: 0,
      entries: recording.entries.map((entry) => {
        const { reservation_rate: _gone, ...outcome } = entry.line.outcome ?? { status: 'unfunded' as const };
        return withLine(entry, { ...entry.line, outcome });
      }),
    };
    const worlds = strategies.map((s) => runWorlds(unrecorded, [s], settings, [1]));
    file = join(dir, 'report.html');
    await writeFile(
      file,
      backtestHtml(
        runs.map((r) => r.first),
        data,
        runs.map((r) => r.draws),
        worlds,
        { sensitivity, conditions: 'risk limits from config/lendbot.yaml; balance $90,000.00 (--balance)' },
      ),
    );
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function open(width: number): Promise<Page> {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    await page.goto(pathToFileURL(file).href);
    await page.waitForSelector('body[data-charts-drawn]');
    // Folded sections count: a reader opens them.
    await page.$$eval('details', (all) => all.forEach((d) => d.setAttribute('open', '')));
    return page;
  }

  /**
   * Every chart's x tick labels, as Chart.js placed them (getLabelItems) and measured in their
   * font. Run in the page as text: the test's TypeScript has no DOM types.
   */
  const X_AXIS_LABELS = `[...document.querySelectorAll('canvas')].map((canvas) => {
    const scale = Chart.getChart(canvas)?.scales.x;
    if (!scale) return { chart: canvas.id, rotation: 0, labels: [] };
    const labels = scale.getLabelItems().map((item) => {
      const text = Array.isArray(item.label) ? item.label.join(' ') : String(item.label);
      scale.ctx.save();
      scale.ctx.font = item.font.string;
      const width = scale.ctx.measureText(text).width;
      scale.ctx.restore();
      const x = item.options.translation[0];
      const align = item.options.textAlign ?? item.textAlign;
      const left = align === 'left' ? x : align === 'right' ? x - width : x - width / 2;
      return { text, left, right: left + width };
    });
    return { chart: canvas.id, rotation: scale.labelRotation, labels };
  })`;

  /** Cells of every table whose right edge lies beyond what its clipping box or the window shows. */
  const CUT_CELLS = `[...document.querySelectorAll('table')].flatMap((table, index) => {
    let clip = table.parentElement;
    while (clip && getComputedStyle(clip).overflowX === 'visible') clip = clip.parentElement;
    const box = clip && clip !== document.documentElement && clip !== document.body ? clip.getBoundingClientRect().right : Infinity;
    const visibleRight = Math.min(box, document.documentElement.clientWidth);
    const name = (table.className || 'table') + ' #' + index;
    return [...table.querySelectorAll('tr')].flatMap((row) =>
      [...row.children].flatMap((cell, column) => {
        const right = cell.getBoundingClientRect().right;
        return right > visibleRight + 0.5 ? [{ table: name, column, text: (cell.textContent ?? '').slice(0, 30), right, visibleRight }] : [];
      }),
    );
  })`;

  const xAxisLabels = (page: Page): Promise<AxisLabels[]> => page.evaluate<AxisLabels[]>(X_AXIS_LABELS);
  const cutCells = (page: Page): Promise<CutCell[]> => page.evaluate<CutCell[]>(CUT_CELLS);

  for (const width of [480, 1280, 1920]) {
    it(`has no overlapping x-axis tick labels at ${width} px`, async () => {
      const page = await open(width);
      const axes = await xAxisLabels(page);
      expect(axes.map((a) => a.chart)).toContain('chart-equity');
      for (const axis of axes) {
        expect(axis.labels.length, axis.chart).toBeGreaterThan(1);
        expect(axis.rotation, `${axis.chart} rotated labels`).toBe(0);
        const sorted = [...axis.labels].sort((a, b) => a.left - b.left);
        const overlaps = sorted.slice(1).flatMap((label, i) => {
          const before = sorted[i];
          return before && label.left < before.right ? [`${before.text} | ${label.text}`] : [];
        });
        expect(overlaps, `${axis.chart} at ${width} px`).toEqual([]);
      }
      await page.close();
    });
  }

  for (const width of [1280, 1920]) {
    it(`shows every column of every table at ${width} px`, async () => {
      const page = await open(width);
      for (const name of ['comparison', 'worlds', 'sensitivity', 'competition', 'adverse-selection', 'calibration', 'segment', 'loans']) {
        expect(await page.locator(`table.${name}`).count(), name).toBeGreaterThan(0);
      }
      expect(await cutCells(page)).toEqual([]);
      await page.close();
    });
  }
});
