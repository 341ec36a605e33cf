/**
 * The HTML backtest report, written to a file from real backtests of synthetic recordings and
 * read back: Chart.js inlined, the JSON data block equal to the result's figures, the side-by-side
 * table, the loans, the sample-size warning, no empty chart, and nothing in a name that can end a
 * script early.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BacktestResult } from '../../src/backtest/backtest-result.js';
import { backtestHtml, type ReportData } from '../../src/backtest/report/html-report.js';
import { dateTicks, equityCurve, idleShareCurve, rateHistogram } from '../../src/backtest/report/report-charts.js';
import { dollars, idleCashText, MIN_FUNDED_LOANS, pct, riskLevelLabel, summaryLines } from '../../src/backtest/report/summary-lines.js';
import { prepareRecording, runDraws, runSensitivity, runWorlds, verdictLine } from '../../src/backtest/index.js';
import { runBacktest } from '../../src/backtest/run-backtest.js';
import type { RecordingLine } from '../../src/recording/index.js';
import { CERTAIN_MARKET, recordingLine, syntheticRecording } from './recording-fixtures.js';
import { FLAT_STRATEGY_YAML, flatStrategy } from './strategy-fixtures.js';

const BALANCE = 20_000_000;

/** Hourly $500 requests; every 7th is still `current` (an open loan), low credit scores often default. */
function recording(count: number): RecordingLine[] {
  return syntheticRecording(count, 7, (low, random) => (low < 620 && random() < 0.5 ? 0.4 : 1)).map((line, i) =>
    i % 7 === 3
      ? recordingLine({
          id: line.loan_request.id,
          seenAt: line.seen_at,
          request: {
            borrower: line.loan_request.borrower,
            loan_amount: '500.00',
            total_amount: '500.00',
            total_fees: '0.00',
            fee_legislative: '0.00',
            fee_svc: '0.00',
            max_interest_rate: 0.3,
          },
          outcome: { status: 'current', best_competing_rate: null, repaid_fraction: 0.3 },
        })
      : line,
  );
}

const strict = flatStrategy(FLAT_STRATEGY_YAML.replace('name: flat', 'name: strict').replace('value: 560', 'value: 700'), 'strict.yaml');
const run = (lines: RecordingLine[], strategy = flatStrategy()): BacktestResult =>
  runBacktest(lines, [strategy], { startingBalanceCents: BALANCE, market: CERTAIN_MARKET });

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lendbot-report-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Writes the report to a file, as `lendbot backtest --html` does, and reads it back. */
async function written(results: BacktestResult[], source = 'synthetic.jsonl'): Promise<string> {
  const file = join(dir, `report-${Math.random().toString(36).slice(2)}.html`);
  await writeFile(file, backtestHtml(results, source));
  return readFile(file, 'utf8');
}

function dataBlock(html: string): ReportData {
  const match = /<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(html);
  expect(match).not.toBeNull();
  return JSON.parse(match?.[1] ?? 'null') as ReportData;
}

function tableOf(html: string, className: string): string[][] {
  const table = new RegExp(`<table class="${className}">([\\s\\S]*?)</table>`).exec(html)?.[1] ?? '';
  return [...table.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/g)].map((row) =>
    [...(row[1] ?? '').matchAll(/<t[hd]>([\s\S]*?)<\/t[hd]>/g)].map((cell) => cell[1] ?? ''),
  );
}

describe('the HTML report of two strategies on a large recording', () => {
  const lines = recording(300);
  const results = [run(lines), run(lines, strict)];
  let html: string;
  let data: ReportData;
  beforeAll(async () => {
    html = await written(results, '/recordings/week.jsonl');
    data = dataBlock(html);
  });

  it('has enough loans, of every outcome, for the rest to mean something', () => {
    const flat = results[0]?.summary.funded ?? 0;
    expect(flat).toBeGreaterThanOrEqual(MIN_FUNDED_LOANS);
    expect(new Set(results[0]?.loans.map((l) => l.outcome))).toEqual(new Set(['repaid', 'defaulted', 'open']));
  });

  it('inlines Chart.js and loads nothing from elsewhere', async () => {
    const umd = await readFile(join(dirname(createRequire(import.meta.url).resolve('chart.js')), 'chart.umd.min.js'), 'utf8');
    expect(html).toContain(umd);
    expect(html).not.toMatch(/<link|src="|href="http/);
    expect(html.match(/<script/g)).toHaveLength(3);
  });

  it('names the strategies and the recording in the title', () => {
    expect(html).toContain('<title>lendbot backtest: flat vs strict on week.jsonl</title>');
  });

  it('carries the result’s own figures in the data block', () => {
    expect(data.runs.map((r) => r.name)).toEqual(['flat', 'strict']);
    results.forEach((result, i) => {
      expect(data.runs[i]?.summary).toEqual(result.summary);
      expect(data.runs[i]?.riskLevels).toEqual(result.segments.risk_level);
      expect(data.runs[i]?.sampleSizeWarning).toBeNull();
    });
    const chart = (id: string) => data.charts.find((c) => c.id === id);
    const equity = chart('equity')?.datasets[0]?.data.at(-1) as [number, number];
    expect(equity[1]).toBe(BALANCE + (results[0]?.summary.netCents ?? Number.NaN));
    const rates = chart('offered-rates')?.datasets.map((d) => (d.data as number[]).reduce((a, b) => a + b, 0));
    expect(rates).toEqual(results.map((r) => r.summary.offers));
    const defaults = chart('default-rate-by-risk');
    const level = defaults?.x.dates === false ? defaults.x.categories[0] : undefined;
    // Categories name the risk level ("low (0)"), not only its number.
    expect(level).toMatch(/^(low|medium|high|friends|crypto) \(\d\)$/);
    expect(defaults?.datasets[0]?.data[0]).toBe(results[0]?.segments.risk_level.find((r) => riskLevelLabel(r.key) === level)?.defaultRate);
  });

  it('draws every chart, each with titled axes in units', () => {
    const canvases = [...html.matchAll(/<canvas id="chart-([\w-]+)"/g)].map((m) => m[1]);
    expect(canvases).toEqual(['equity', 'drawdown', 'idle-cash', 'default-rate-by-risk', 'return-by-risk', 'offered-rates']);
    expect(html).not.toContain('class="no-chart"');
    for (const spec of data.charts) {
      expect(spec.x.title, spec.id).not.toBe('');
      expect(spec.y.title, spec.id).toMatch(/\((USD|%|count)\)$/);
      expect(spec.datasets.map((d) => d.label)).toEqual(['flat', 'strict']);
    }
    expect(data.charts.find((c) => c.id === 'equity')?.x).toMatchObject({ dates: true, title: 'date (UTC)' });
    expect(html).not.toMatch(/width="720"|720px/);
  });

  it('compares the strategies side by side with the terminal report’s rows', () => {
    const rows = tableOf(html, 'comparison');
    expect(rows[0]).toEqual(['', 'flat', 'strict']);
    expect(rows.slice(1).map((r) => r[0])).toEqual(summaryLines(results[0]?.summary ?? ({} as never)).map(([label]) => label));
    const funded = rows.find((r) => r[0] === 'loans funded');
    expect(funded).toEqual(['loans funded', ...results.map((r) => String(r.summary.funded))]);
    const net = rows.find((r) => r[0] === 'net');
    expect(net?.[1]).toBe(dollars(results[0]?.summary.netCents ?? 0));
    expect(net?.[1]).toMatch(/^-?\$\d{1,3}(,\d{3})*\.\d\d$/);
  });

  it('lists every funded loan with its outcome and profit', () => {
    const rows = tableOf(html, 'loans');
    expect(rows[0]).toEqual(['request id', 'strategy', 'funded', 'risk level', 'amount', 'rate', 'outcome', 'profit']);
    expect(rows).toHaveLength(1 + results.reduce((sum, r) => sum + r.summary.funded, 0));
    const first = results[0]?.loans[0];
    expect(rows[1]).toEqual([
      String(first?.loanRequestId),
      'flat',
      first?.fundedAt.slice(0, 10),
      riskLevelLabel(first?.riskLevel ?? -1),
      '$500.00',
      '12.0%',
      first?.outcome,
      dollars(first?.profitCents ?? 0),
    ]);
    for (const result of results) {
      // Each loan's profit is its share of interest + recoveries − losses: together, the whole.
      const { interestCents, recoveryCents, lossCents } = result.summary;
      expect(result.loans.reduce((sum, l) => sum + l.profitCents, 0)).toBe(interestCents + recoveryCents - lossCents);
    }
  });

  it('shows results by risk level and no sample-size warning', () => {
    const rows = tableOf(html, 'segment');
    expect(rows[0]?.slice(0, 5)).toEqual(['risk level', 'requests', 'offers', 'funded', 'defaults']);
    expect(html).not.toContain('class="warning"');
  });
});

describe('the verdict, offer outcomes, idle cash and sensitivity of the HTML report', () => {
  const lines = recording(300);
  const prepared = prepareRecording(lines);
  const settings = { startingBalanceCents: BALANCE, market: CERTAIN_MARKET };
  const strategies = [flatStrategy(), strict];
  const runs = strategies.map((s) => runDraws(prepared, [s], settings, [1, 2]));
  const sensitivity = strategies.map((s) => runSensitivity(prepared, [s], settings, [1, 2]));
  const results = runs.map((r) => r.first);
  let html: string;
  beforeAll(() => {
    html = backtestHtml(
      results,
      'week.jsonl',
      runs.map((r) => r.draws),
      [],
      { sensitivity, conditions: 'risk limits from config/lendbot.yaml; balance $200,000.00 (--balance)' },
    );
  });

  it('opens with one verdict line: the best run against uninvested cash and the other run, and its idle cash', () => {
    const verdict = /<p class="verdict"><strong>Verdict:<\/strong> (.*?)\.<\/p>/.exec(html)?.[1];
    const [best, other] =
      runs[0] && runs[1] && runs[0].draws.netAnnualizedReturn.mean >= runs[1].draws.netAnnualizedReturn.mean
        ? [runs[0], runs[1]]
        : [runs[1], runs[0]];
    const summary = best?.first.summary;
    expect(verdict).toBe(
      `${best?.first.strategies[0]?.name} earned ${pct(best?.draws.netAnnualizedReturn.mean ?? NaN)} a year net on its capital (mean of 2 draws), beating uninvested cash (0%), ` +
        `ahead of ${other?.first.strategies[0]?.name} (${pct(other?.draws.netAnnualizedReturn.mean ?? NaN)}); ` +
        `${pct(summary?.idleShareWhileRequests ?? NaN)} of its money sat idle while requests arrived (${pct(summary?.idleShare ?? NaN)} to the last repayment)` +
        // No cap in this run: the idle money had no request the strategy would take.
        ': the market offered too few requests this strategy would take for this balance (no cap refused one)',
    );
    // At the top: before the first section.
    expect(html.indexOf('class="verdict"')).toBeLessThan(html.indexOf('<h2>'));
    expect(html).toContain('<p class="conditions">Conditions: risk limits from config/lendbot.yaml; balance $200,000.00 (--balance).</p>');
    expect(dataBlock(html).verdict).toBe(verdict);
  });

  it('with the band across borrower worlds, counts the worlds above cash and those where the best run is ahead', () => {
    const worlds = strategies.map((s) => runWorlds(prepared, [s], settings, [1]));
    const verdict =
      verdictLine(
        results,
        runs.map((r) => r.draws),
        worlds,
      ) ?? '';
    const bestIndex = (runs[0]?.draws.netAnnualizedReturn.mean ?? 0) >= (runs[1]?.draws.netAnnualizedReturn.mean ?? 0) ? 0 : 1;
    const [mine, theirs] = [worlds[bestIndex], worlds[1 - bestIndex]];
    const above = mine?.worlds.filter((w) => w.draws.netAnnualizedReturn.mean > 0).length;
    const ahead = mine?.worlds.filter(
      (w, i) => w.draws.netAnnualizedReturn.mean > (theirs?.worlds[i]?.draws.netAnnualizedReturn.mean ?? Infinity),
    ).length;
    expect(mine?.worlds).toHaveLength(4);
    expect(verdict).toContain(
      `, ${pct(mine?.low?.netAnnualizedReturn ?? NaN)} to ${pct(mine?.high?.netAnnualizedReturn ?? NaN)} across borrower worlds, `,
    );
    expect(verdict).toContain(` uninvested cash (0%) on average and in ${above} of 4 borrower worlds, `);
    expect(verdict).toContain(`; ahead in ${ahead} of 4 borrower worlds)`);
  });

  it('counts each run’s offers won, outbid and declined under its headline', () => {
    for (const result of results) {
      const stats = result.offerStats.at(-1);
      expect(stats?.offers).toBeGreaterThan(0);
      expect(html).toContain(
        `<p class="offers">${stats?.offers} offers: ${stats?.won} won (${stats?.funded} funded), ${stats?.outbid} outbid, ${stats?.declined} declined, ${stats?.unjudged} unjudged, ${stats?.expired} expired.</p>`,
      );
    }
  });

  it('shows idle cash as a share of the money over time, and the shares add up with the money lent', () => {
    for (const { summary } of results) {
      expect(summary.idleShare).toBeGreaterThan(0);
      expect(summary.idleShare + summary.reservedShare + summary.capitalUtilization).toBeCloseTo(1, 9);
      expect(summary.idleShareWhileRequests).toBeGreaterThan(0);
      expect(summary.idleShareWhileRequests).toBeLessThan(1);
      expect(summary.idleShareWhileRequests).not.toBe(summary.idleShare);
    }
    const row = tableOf(html, 'comparison').find((r) => r[0] === 'idle cash, share of the money over time');
    expect(row?.slice(1)).toEqual(results.map((r) => idleCashText(r.summary)));
    expect(dataBlock(html).runs[0]?.summary.idleShare).toBe(results[0]?.summary.idleShare);
  });

  it('has the sensitivity section of the terminal report, one table per run', () => {
    expect(html).toContain('<h2>Sensitivity</h2>');
    const tables = [...html.matchAll(/<table class="sensitivity">/g)];
    expect(tables).toHaveLength(2);
    const rows = tableOf(html, 'sensitivity');
    expect(rows[0]).toEqual(['borrowers', 'midpoint', 'steepness', 'net ann. return', 'range', 'funded']);
    expect(rows.slice(1).map((r) => r[0])).toEqual(['as assumed', ...(sensitivity[0] ?? []).map((c) => c.label)]);
    expect(dataBlock(html).runs[1]?.sensitivity).toEqual(sensitivity[1]);
    expect(backtestHtml(results, 'week.jsonl')).not.toContain('<h2>Sensitivity</h2>');
  });
});

describe('the HTML report of a tiny run', () => {
  it('warns that too few loans were funded to judge', async () => {
    const result = run(recording(12));
    const html = await written([result]);
    expect(result.summary.funded).toBeGreaterThan(0);
    expect(html).toContain(
      `<div class="warning" role="alert"><strong>Warning</strong><p>flat: fewer than ${MIN_FUNDED_LOANS} funded loans (${result.summary.funded}): the figures are noise-level.</p>`,
    );
    expect(dataBlock(html).runs[0]?.sampleSizeWarning).toMatch(/^fewer than 100 funded loans/);
  });

  it('replaces a chart with nothing to draw by one line of text', async () => {
    const nothing = run(recording(12), flatStrategy(FLAT_STRATEGY_YAML.replace('min: $min_credit_score', 'min: 900'), 'none.yaml'));
    expect(nothing.summary.offers).toBe(0);
    // Nothing offered, nothing lent: all of the money sat idle the whole time.
    expect(nothing.summary).toMatchObject({ idleShare: 1, reservedShare: 0, idleShareWhileRequests: 1, capitalUtilization: 0 });
    const html = await written([nothing]);
    expect(html).toContain(
      '<p class="no-chart" data-chart="offered-rates">Offered rates: no offer passed the guard, so there is no distribution to show.</p>',
    );
    expect(html).toContain('<p class="no-chart" data-chart="default-rate-by-risk">');
    expect(html).not.toContain('id="chart-offered-rates"');
    expect(html).toContain('<canvas id="chart-equity"');
    expect(html).toContain('<p class="no-loans">No loan was funded.</p>');
  });

  it('keeps a strategy name with </script> inside its element', async () => {
    const result = run(recording(12));
    const evil = '</script><script>document.title="pwned"</script><!--';
    const renamed: BacktestResult = {
      ...result,
      strategies: result.strategies.map((s) => ({ ...s, name: evil })),
      loans: result.loans.map((l) => ({ ...l, strategy: evil })),
    };
    const html = await written([renamed]);
    expect(html.match(/<script/gi)).toHaveLength(3);
    expect(html.match(/<\/script>/gi)).toHaveLength(3);
    expect(html).not.toContain('<!--');
    expect(dataBlock(html).runs[0]?.name).toBe(evil);
    expect(html).toContain('&lt;/script&gt;&lt;script&gt;document.title=&quot;pwned&quot;');
  });
});

describe('the report’s chart data', () => {
  it('counts offered rates of several runs in shared buckets, side by side', () => {
    expect(rateHistogram([[0.03, 0.035, 0.07], [0.12]])).toEqual({
      labels: ['2%–4%', '4%–6%', '6%–8%', '8%–10%', '10%–12%', '12%–14%'],
      counts: [
        [2, 0, 1, 0, 0, 0],
        [0, 0, 0, 0, 0, 1],
      ],
    });
    expect(rateHistogram([[], []])).toEqual({ labels: [], counts: [[], []] });
  });

  it('measures drawdown in dollars below the highest equity so far', () => {
    const at = (day: number) => new Date(Date.UTC(2026, 0, day)).toISOString();
    const curve = equityCurve(
      [
        { at: at(1), netCents: 500, deployedCents: 0, idleCents: 0 },
        { at: at(2), netCents: -300, deployedCents: 0, idleCents: 0 },
        { at: at(3), netCents: 900, deployedCents: 0, idleCents: 0 },
      ],
      10_000,
    );
    expect(curve.map((p) => [p.equityCents, p.drawdownCents])).toEqual([
      [10_500, 0],
      [9_700, -800],
      [10_900, 0],
    ]);
  });

  it('charts idle cash as the share of the money neither lent nor held by an offer', () => {
    const at = (day: number) => new Date(Date.UTC(2026, 0, day)).toISOString();
    expect(
      idleShareCurve([
        { at: at(1), netCents: 0, deployedCents: 0, idleCents: 10_000, reservedCents: 0 },
        { at: at(2), netCents: 0, deployedCents: 6_000, idleCents: 4_000, reservedCents: 1_000 },
        { at: at(3), netCents: 0, deployedCents: 0, idleCents: 0 },
      ]),
    ).toEqual([
      [Date.parse(at(1)), 1],
      [Date.parse(at(2)), 0.3],
      [Date.parse(at(3)), 0],
    ]);
  });

  it('puts date ticks on whole days, weeks or month starts, about a dozen at most', () => {
    const day = (text: string) => Date.parse(`${text}T00:00:00Z`);
    const dates = (ticks: number[]) => ticks.map((t) => new Date(t).toISOString().slice(0, 10));
    expect(dates(dateTicks(day('2026-01-01') + 3_600_000, day('2026-01-04')))).toEqual([
      '2026-01-01',
      '2026-01-02',
      '2026-01-03',
      '2026-01-04',
    ]);
    expect(dates(dateTicks(day('2026-01-01'), day('2026-02-20')))).toEqual([
      '2026-01-01',
      '2026-01-08',
      '2026-01-15',
      '2026-01-22',
      '2026-01-29',
      '2026-02-05',
      '2026-02-12',
      '2026-02-19',
    ]);
    expect(dates(dateTicks(day('2026-01-13'), day('2027-05-29')))).toEqual([
      '2026-03-01',
      '2026-05-01',
      '2026-07-01',
      '2026-09-01',
      '2026-11-01',
      '2027-01-01',
      '2027-03-01',
      '2027-05-01',
    ]);
    expect(dateTicks(day('2020-01-01'), day('2029-12-31')).length).toBeLessThanOrEqual(12);
    expect(dateTicks(5, 4)).toEqual([]);
  });

  it('writes money as dollars with thousands separators', () => {
    expect([dollars(0), dollars(123_456), dollars(-100_000_000), dollars(99)]).toEqual(['$0.00', '$1,234.56', '-$1,000,000.00', '$0.99']);
  });
});
