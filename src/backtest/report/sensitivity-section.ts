/**
 * The sensitivity section of every report (terminal and HTML share these rows): the run's draws
 * re-run with borrowers more and less rate-sensitive than assumed (draws.ts runSensitivity), so a
 * reader sees how much the headline leans on the take-up curve nobody observed.
 */
import type { BacktestResult } from '../backtest-result.js';
import type { DrawsSummary, SensitivityCase } from '../draws.js';
import { escapeHtml, table } from './report-tables.js';
import { pct } from './summary-lines.js';

export const SENSITIVITY_HEADER = ['borrowers', 'midpoint', 'steepness', 'net ann. return', 'range', 'funded'];

/** What the table shows, for a run of `draws` draws. */
export const sensitivityTitle = (draws: number): string =>
  `Sensitivity: net annualized return (mean over the same ${draws} draws) if borrowers are more or less rate-sensitive`;

/** The assumed curve first, then each case. */
export function sensitivityRows(
  cases: readonly SensitivityCase[],
  result: Pick<BacktestResult, 'settings'>,
  draws: DrawsSummary,
): string[][] {
  const row = (label: string, curve: { midpoint: number; steepness: number }, d: DrawsSummary): string[] => [
    label,
    curve.midpoint.toFixed(2),
    String(curve.steepness),
    pct(d.netAnnualizedReturn.mean),
    `${pct(d.netAnnualizedReturn.min)} to ${pct(d.netAnnualizedReturn.max)}`,
    d.funded.mean.toFixed(0),
  ];
  return [row('as assumed', result.settings.market.response.takeUp, draws), ...cases.map((c) => row(c.label, c.takeUp, c.draws))];
}

/** The HTML section: one table per run that has cases; empty when none has. */
export function sensitivityHtml(
  results: readonly BacktestResult[],
  names: readonly string[],
  draws: ReadonlyArray<DrawsSummary | undefined>,
  cases: ReadonlyArray<readonly SensitivityCase[] | undefined>,
): string {
  const parts = results.flatMap((result, i) => {
    const run = cases[i];
    const summary = draws[i];
    if (!run || run.length === 0 || !summary) return [];
    return [
      `<h3>${escapeHtml(names[i] ?? '')}</h3><p>${escapeHtml(sensitivityTitle(summary.draws.length))}.</p>${table('sensitivity', SENSITIVITY_HEADER, sensitivityRows(run, result, summary))}`,
    ];
  });
  if (parts.length === 0) return '';
  return `<h2>Sensitivity</h2><p>The take-up curve is an assumption (docs/backtesting.md, "The market model"): the same draws with borrowers who walk away sooner or later, or mind the rate more or less.</p><div class="scroll">${parts.join('')}</div>`;
}
