/**
 * The drift report on the terminal and as JSON (`lendbot drift`, docs/backtesting.md "Backtest
 * against live"): a table of the months side by side, the findings in words, the instalments by
 * month of loan age. JSON is snake_case, shares as fractions, money in integer cents.
 */
import { hazardFigures, hazardJson, pct } from '../instalment-hazard.js';
import { strategyVintageJson } from '../calibration-by-strategy.js';
import type { DriftMonth, DriftReport, ShareComparison } from './drift-report.js';

const num = (value: number | null, digits = 0): string => (value === null ? '-' : value.toFixed(digits));

const HEAD = [
  'month',
  'requests',
  'offers live/replay',
  'accepted live [95%]',
  'expected',
  'paper',
  'fills live/expected',
  'default so far/by now',
  'age',
  'return live/expected',
];

function cells(m: DriftMonth): string[] {
  const a = m.acceptance;
  const loans = m.loans;
  return [
    m.month,
    String(m.requests.live),
    `${m.offers.liveOffers}/${num(m.offers.backtestOffers)}`,
    `${pct(a.live.share)} [${pct(a.live.low)}-${pct(a.live.high)}] n=${a.live.n}`,
    pct(a.backtest),
    pct(a.paper),
    `${m.fills.live}/${num(m.fills.backtest, 1)}`,
    loans === null || loans.loans === 0
      ? '-'
      : `${pct(loans.realised)}/${pct(loans.expectedByNow)} of ${loans.loans}${loans.reading === 'too early' ? ' (too early)' : ''}`,
    loans?.ageMonths === null || loans === null ? '-' : `${loans.ageMonths.toFixed(1)} mo`,
    `${pct(m.return.liveSoFar)}/${pct(m.return.backtestExpected)}`,
  ];
}

/** The report for people. */
export function driftText(report: DriftReport, heading: string): string {
  const rows = [HEAD, ...report.months.map(cells), cells(report.all)];
  const widths = HEAD.map((_, i) => Math.max(...rows.map((row) => (row[i] ?? '').length)));
  const table = rows.map((row) =>
    row
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd(),
  );
  const lines = [heading, '', ...table, '', 'What drifted:', ...report.findings.map((finding) => `- ${finding}`)];
  if (report.hazard.length > 0)
    lines.push(
      '',
      "Instalments by month of the loans' lives (missed: the monthly hazard of default):",
      ...report.hazard.map((row) => `  ${hazardFigures(row)}`),
    );
  return `${lines.join('\n')}\n`;
}

const share = (c: ShareComparison): Record<string, unknown> => ({
  live: c.live.share,
  live_low: c.live.low,
  live_high: c.live.high,
  live_k: c.live.k,
  live_n: c.live.n,
  backtest: c.backtest,
  paper: c.paper,
  verdict: c.verdict,
});

function monthJson(m: DriftMonth): Record<string, unknown> {
  return {
    month: m.month,
    requests: { live: m.requests.live, backtest: m.requests.backtest },
    offers: {
      ...share(m.offers),
      live_offers: m.offers.liveOffers,
      backtest_offers: m.offers.backtestOffers,
      paper_offers: m.offers.paperOffers,
    },
    acceptance: share(m.acceptance),
    fills: m.fills,
    loans: m.loans === null ? null : strategyVintageJson(m.loans),
    return: {
      lent_cents: m.return.lentCents,
      net_cents: m.return.netCents,
      live_so_far_annual: m.return.liveSoFar,
      backtest_expected_annual: m.return.backtestExpected,
    },
  };
}

/** The report as JSON (--json). */
export function driftJson(report: DriftReport, meta: Record<string, unknown>): Record<string, unknown> {
  return {
    version: 1,
    ...meta,
    months: report.months.map(monthJson),
    all: monthJson(report.all),
    hazard: report.hazard.map(hazardJson),
    findings: report.findings,
  };
}
