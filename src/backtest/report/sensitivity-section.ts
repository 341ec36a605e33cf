/**
 * The sensitivity section of every report (terminal and HTML share these rows): the run's draws
 * re-run with borrowers more and less rate-sensitive than assumed (draws.ts runSensitivity), so a
 * reader sees how much the headline leans on the take-up curve nobody observed. The curve judges
 * only offers on requests that do not record their borrower's answer (reservation_rate): where it
 * judged none, the table would repeat one figure, which reads as "robust", so the section says why
 * there is nothing to vary instead (and the command skips those runs).
 */
import type { BacktestResult } from '../backtest-result.js';
import type { DrawsSummary, SensitivityCase } from '../draws.js';
import { escapeHtml, table } from './report-tables.js';
import { pct } from './summary-lines.js';
import { cannotBeJudged } from './unjudgeable.js';

/** What the section says beside (or, when `replacesTable`, instead of) the table. */
export interface SensitivityNote {
  /** true: the curve judged no offer, so no table is computed or shown. */
  replacesTable: boolean;
  text: string;
}

/** How many of the run's judged offers (first draw) the take-up curve judged; null when no note is needed. */
export function sensitivityNote(result: Pick<BacktestResult, 'summary' | 'offerStats'>): SensitivityNote | null {
  if (cannotBeJudged(result.summary))
    return { replacesTable: true, text: 'Sensitivity: none: the recording could judge no offer, so no take-up curve changes anything' };
  const stats = result.offerStats.at(-1);
  const judged = stats ? stats.won + stats.outbid + stats.declined : 0;
  if (judged === 0) return { replacesTable: true, text: 'Sensitivity: none: no offer was answered, so no take-up curve changes anything' };
  const recorded = stats?.recordedAcceptance ?? 0;
  const byCurve = judged - recorded;
  if (byCurve === 0)
    return {
      replacesTable: true,
      text:
        'Sensitivity: none to show: every offer the recording could judge was judged by the highest rate its borrower recorded (reservation_rate), not by the take-up curve, ' +
        'so varying the curve would repeat the headline; the band across borrower worlds shows what borrowers who answer differently would do',
    };
  if (recorded === 0) return null;
  return {
    replacesTable: false,
    text:
      `The take-up curve judged ${byCurve} of the ${judged} answered offers (${pct(byCurve / judged)}, first draw); ` +
      'the others were judged by the highest rate their borrower recorded, the same in every row',
  };
}

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

/**
 * The HTML section: one table per run that has cases, or the note that says why a run has none;
 * `cases[i]` undefined: not asked for (--no-sensitivity, a dry run). Empty when no run has either.
 */
export function sensitivityHtml(
  results: readonly BacktestResult[],
  names: readonly string[],
  draws: ReadonlyArray<DrawsSummary | undefined>,
  cases: ReadonlyArray<readonly SensitivityCase[] | undefined>,
): string {
  const parts = results.flatMap((result, i) => {
    const run = cases[i];
    const summary = draws[i];
    if (!run || !summary) return [];
    const note = sensitivityNote(result);
    const title = `<h3>${escapeHtml(names[i] ?? '')}</h3>`;
    if (note?.replacesTable) return [`${title}<p class="sensitivity-note">${escapeHtml(note.text)}.</p>`];
    if (run.length === 0) return [];
    const after = note ? `<p class="sensitivity-note">${escapeHtml(note.text)}.</p>` : '';
    return [
      `${title}<p>${escapeHtml(sensitivityTitle(summary.draws.length))}.</p>${table('sensitivity', SENSITIVITY_HEADER, sensitivityRows(run, result, summary))}${after}`,
    ];
  });
  if (parts.length === 0) return '';
  return `<h2>Sensitivity</h2><p>The take-up curve is an assumption (docs/backtesting.md, "The market model"): the same draws with borrowers who walk away sooner or later, or mind the rate more or less.</p><div class="scroll">${parts.join('')}</div>`;
}
