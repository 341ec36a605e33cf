/**
 * How well a strategy's probability matches what happened, on resolved requests it scored:
 *
 * - by decile of its predicted default (1 − repayment probability, safest first): n, mean
 *   predicted, realised default and its 95 % interval;
 * - the Brier score (mean squared error of the predicted default) against a constant guess at the
 *   base rate d, which scores d(1 − d) on the same requests;
 * - the realised default in a band just below and just above `min_probability`: does the cut
 *   separate riskier requests from safer ones?
 * - findings in plain words: where the prediction is off by more than 2 points and outside the
 *   realised default's 95 % interval.
 */
import { wilson } from '../../math/index.js';
import { brier } from '../train/prediction-quality.js';
import { percentOneDecimal as pct } from '../../log/plain-figures.js';

/** A prediction this far from what happened, and outside its interval, is called off. */
const CALIBRATION_TOLERANCE = 0.02;
/** The band on each side of min_probability, in probability. */
const CUT_BAND_WIDTH = 0.05;

/** One prediction and what became of it. */
export interface Prediction {
  /** Predicted default probability (1 − the repayment probability). */
  predicted: number;
  defaulted: 0 | 1;
}

/** A group of predictions against what happened. */
export interface CalibrationGroup {
  n: number;
  /** The lowest and highest predicted default in the group. */
  from: number;
  to: number;
  /** Mean predicted default. */
  predicted: number;
  /** Realised default rate and its 95 % Wilson interval. */
  realised: number;
  low: number;
  high: number;
}

interface CutBands {
  /** The cut, as a repayment probability. */
  minProbability: number;
  width: number;
  /** Requests scored in [cut − width, cut): just below the cut, skipped by it. */
  below: CalibrationGroup;
  /** Requests scored in [cut, cut + width): just above it. */
  above: CalibrationGroup;
  /** Every request at or above the cut: those the strategy goes on to price. */
  passing: CalibrationGroup;
}

interface Finding {
  kind: 'overall' | 'decile' | 'brier' | 'cut';
  /** True when the figure is fine (calibrated, better than a constant guess, a cut that separates). */
  ok: boolean;
  text: string;
}

export interface CalibrationStats {
  overall: CalibrationGroup;
  deciles: Array<CalibrationGroup & { decile: number }>;
  brier: number;
  /** The Brier score of a constant guess at the realised base rate: d(1 − d). */
  constantBrier: number;
  /** Undefined without a cut (min_probability 0). */
  cut: CutBands | undefined;
  findings: Finding[];
}

function groupOf(items: readonly Prediction[]): CalibrationGroup {
  let predicted = 0;
  let defaults = 0;
  let from = Number.POSITIVE_INFINITY;
  let to = Number.NEGATIVE_INFINITY;
  for (const item of items) {
    predicted += item.predicted;
    defaults += item.defaulted;
    from = Math.min(from, item.predicted);
    to = Math.max(to, item.predicted);
  }
  // The 95 % Wilson interval the adverse-selection figures use (offer-stats.ts); empty: [0, 1].
  const interval = wilson(defaults, items.length);
  const n = items.length;
  return {
    n,
    from: n > 0 ? from : 0,
    to: n > 0 ? to : 0,
    predicted: n > 0 ? predicted / n : 0,
    realised: interval.rate ?? 0,
    low: interval.low ?? 0,
    high: interval.high ?? 1,
  };
}

/** Whether a group's prediction is within 2 points of what happened, or within its interval. */
export function calibrated(group: CalibrationGroup): boolean {
  return (
    Math.abs(group.predicted - group.realised) <= CALIBRATION_TOLERANCE || (group.predicted >= group.low && group.predicted <= group.high)
  );
}

/** Equal-count groups by predicted default, safest first (fewer when there are fewer items). */
function deciles(items: readonly Prediction[], groups = 10): Array<CalibrationGroup & { decile: number }> {
  const order = [...items].sort((a, b) => a.predicted - b.predicted);
  const rows: Array<CalibrationGroup & { decile: number }> = [];
  for (let g = 0; g < groups; g += 1) {
    const slice = order.slice(Math.floor((g * order.length) / groups), Math.floor(((g + 1) * order.length) / groups));
    if (slice.length > 0) rows.push({ decile: g + 1, ...groupOf(slice) });
  }
  return rows;
}

/** train's Brier score, on predicted default against realised default. */
function brierScore(items: readonly Prediction[]): number {
  return brier(
    items.map((item) => item.predicted),
    items.map((item) => item.defaulted),
  );
}

/** "10.0-20.0 %": a band of probabilities, the percent sign once. */
export const percentRange = (from: number, to: number): string => `${(from * 100).toFixed(1)}-${pct(to)}`;
const interval = (group: CalibrationGroup): string => `95 % interval ${percentRange(group.low, group.high)}, n=${group.n}`;

/** "predicts 11.6 % where 8.1 % happened (95 % interval 7.2-9.1 %, n=2345)", or its calibrated form. */
export function groupVerdict(group: CalibrationGroup): string {
  if (calibrated(group)) {
    const why = Math.abs(group.predicted - group.realised) <= CALIBRATION_TOLERANCE ? 'within 2 points' : 'within the interval';
    return `predicts ${pct(group.predicted)} where ${pct(group.realised)} happened (${interval(group)}): ${why}`;
  }
  const way = group.predicted > group.realised ? 'overstates' : 'understates';
  return `predicts ${pct(group.predicted)} where ${pct(group.realised)} happened (${interval(group)}): ${way} default by ${(Math.abs(group.predicted - group.realised) * 100).toFixed(1)} points`;
}

function cutBands(items: readonly Prediction[], minProbability: number, width: number): CutBands {
  // In repayment terms: below = [cut − width, cut), above = [cut, cut + width).
  const repay = (item: Prediction): number => 1 - item.predicted;
  return {
    minProbability,
    width,
    below: groupOf(items.filter((item) => repay(item) < minProbability && repay(item) >= minProbability - width)),
    above: groupOf(items.filter((item) => repay(item) >= minProbability && repay(item) < minProbability + width)),
    passing: groupOf(items.filter((item) => repay(item) >= minProbability)),
  };
}

function cutFinding(cut: CutBands): Finding {
  const { below, above } = cut;
  const range = (from: number, to: number): string => `${from.toFixed(2)}-${to.toFixed(2)}`;
  const belowText = `just below min_probability ${cut.minProbability} (scored ${range(cut.minProbability - cut.width, cut.minProbability)}): ${below.n === 0 ? 'no request' : `${pct(below.realised)} defaulted (${interval(below)}, predicted ${pct(below.predicted)})`}`;
  const aboveText = `just above (${range(cut.minProbability, cut.minProbability + cut.width)}): ${above.n === 0 ? 'no request' : `${pct(above.realised)} (${interval(above)}, predicted ${pct(above.predicted)})`}`;
  if (below.n === 0 || above.n === 0) return { kind: 'cut', ok: true, text: `${belowText}; ${aboveText}` };
  if (below.realised < above.realised) {
    const chance = below.high >= above.low ? ' (the intervals overlap: it may be chance)' : '';
    return {
      kind: 'cut',
      ok: false,
      text: `${belowText}; ${aboveText}: requests just below the cut defaulted less than those just above${chance}`,
    };
  }
  return { kind: 'cut', ok: true, text: `${belowText}; ${aboveText}` };
}

/** Everything above, for predictions of one strategy; `minProbability` 0 means no cut. */
export function calibrationStats(items: readonly Prediction[], minProbability: number, width = CUT_BAND_WIDTH): CalibrationStats {
  const overall = groupOf(items);
  const rows = deciles(items);
  const brier = brierScore(items);
  const constantBrier = overall.realised * (1 - overall.realised);
  const cut = minProbability > 0 ? cutBands(items, minProbability, width) : undefined;
  const findings: Finding[] = [];
  if (items.length === 0) return { overall, deciles: rows, brier, constantBrier, cut, findings };
  findings.push({ kind: 'overall', ok: calibrated(overall), text: `overall: ${groupVerdict(overall)}` });
  for (const row of rows) {
    if (!calibrated(row))
      findings.push({
        kind: 'decile',
        ok: false,
        text: `decile ${row.decile} (predicted ${percentRange(row.from, row.to)}): ${groupVerdict(row)}`,
      });
  }
  if (cut !== undefined && cut.passing.n > 0 && cut.passing.n < items.length) {
    findings.push({
      kind: 'overall',
      ok: calibrated(cut.passing),
      text: `at or above min_probability ${minProbability}: ${groupVerdict(cut.passing)}`,
    });
  }
  const better = brier < constantBrier;
  const skill = constantBrier > 0 ? (1 - brier / constantBrier) * 100 : 0;
  findings.push({
    kind: 'brier',
    ok: better,
    text: `Brier score ${brier.toFixed(4)} against ${constantBrier.toFixed(4)} for a constant guess at the base rate ${pct(overall.realised)} (n=${items.length}): ${better ? `${skill.toFixed(1)} % better` : 'no better than the constant guess'}`,
  });
  if (cut !== undefined) findings.push(cutFinding(cut));
  return { overall, deciles: rows, brier, constantBrier, cut, findings };
}
