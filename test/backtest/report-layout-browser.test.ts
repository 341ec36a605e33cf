/**
 * The HTML backtest report's layout in a real browser (Debian's Chromium, playwright-core), on a
 * real sandbox export backtested over two years of cash flows: at a narrow, the usual (1,280 px)
 * and a wide window, no two x-axis tick labels of any chart overlap, and every column of every
 * table is visible (at 1,280 px and wider no table is wider than its box, so none scrolls or is
 * cut, and both strategies' columns of the side-by-side table show). The daemon's kind of caps,
 * tight, make the guard refuse for several reasons, whose list is the widest cell of that table.
 * Skipped when Chromium is missing, unless LENDBOT_REQUIRE_BROWSER=1.
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
import { DEFAULT_RISK_LIMITS } from '../../src/risk/index.js';
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
    const exported = await loadRecording(data, {}, () => undefined);
    // Without the recorded reservation rates the take-up curve judges the offers, so the
    // sensitivity section has its tables too (on the export itself it says there is nothing to vary).
    const recording: PreparedRecording = {
      duplicates: 0,
      entries: exported.entries.map((entry) => {
        const { reservation_rate: _gone, ...outcome } = entry.line.outcome ?? { status: 'unfunded' as const };
        return withLine(entry, { ...entry.line, outcome });
      }),
    };
    const strategies = [await loadStrategyFile('strategies/balanced.yaml'), await loadStrategyFile('strategies/examples/naive.yaml')];
    // Caps a lender might set: each strategy is refused for three or four reasons.
    const limits = {
      ...DEFAULT_RISK_LIMITS,
      maxOffersPerDay: 12,
      maxAmountPerDayShare: 0.2,
      maxPerBorrowerCents: 150_000,
      maxShareByRiskLevel: { 2: 0.3 },
      maxOpenExposureShare: 0.6,
    };
    const settings = { startingBalanceCents: 3_000_000, limits, market: {}, recordDecisions: false };
    const runs = strategies.map((s) => runDraws(recording, [s], settings, [1, 2]));
    runs.forEach((run, i) => (run.first.calibration = strategies.slice(i, i + 1).map((s) => strategyCalibration(recording, s))));
    const sensitivity = strategies.map((s) => runSensitivity(recording, [s], settings, [1, 2]));
    const worlds = strategies.map((s, i) => runWorlds(recording, [s], settings, [1, 2], runs[i]?.draws));
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

  /** Every table wider than the box it sits in (the nearest ancestor that clips, else the page's width). */
  const WIDE_TABLES = `[...document.querySelectorAll('table')].flatMap((table, index) => {
    let clip = table.parentElement;
    while (clip && getComputedStyle(clip).overflowX === 'visible') clip = clip.parentElement;
    const box = clip && clip !== document.documentElement && clip !== document.body ? clip.clientWidth : document.documentElement.clientWidth;
    const width = table.getBoundingClientRect().width;
    return width > box + 0.5 ? [{ table: (table.className || 'table') + ' #' + index, width: Math.round(width), box }] : [];
  })`;

  /** The side-by-side table's header cells: each run's name and whether it lies inside the table's box. */
  const COMPARISON_COLUMNS = `(() => {
    const table = document.querySelector('table.comparison');
    const box = table.parentElement.getBoundingClientRect();
    return [...table.querySelectorAll('thead th')].slice(1).map((th) => {
      const r = th.getBoundingClientRect();
      return { name: th.textContent, visible: r.left >= box.left - 0.5 && r.right <= box.right + 0.5 && r.width > 0 };
    });
  })()`;

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
      expect(await page.evaluate(WIDE_TABLES)).toEqual([]);
      expect(await page.evaluate(COMPARISON_COLUMNS)).toEqual([
        { name: 'balanced', visible: true },
        { name: 'naive', visible: true },
      ]);
      await page.close();
    });
  }
});
