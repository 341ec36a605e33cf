/**
 * A strategy's `score.calibration`, compiled: a rising map from the score's log-odds of repayment
 * to calibrated log-odds, applied after the scorecard, logistic terms and model and before
 * filters, provider bands, min_probability and pricing.
 *
 *   platt:    calibrated log-odds = a × log-odds + b
 *   isotonic: p = 1 / (1 + e^-(log-odds)); q = the points' piecewise linear value at p (flat
 *             beyond the first and last point); calibrated log-odds = ln(q / (1 − q))
 *   learned:  its seed (platt or isotonic, if any), then P(default) = E[σ(a + b · logit(pd_score))]
 *             over the strategy's calibration learner's posterior of [a, b] (compile-score.ts)
 *
 * Working on log-odds lets the calibration be one more contribution line (its log-odds are the
 * calibrated minus the raw total), so the lines still add up to the probability decided with.
 */
import { logistic, logit } from '../../math/index.js';
import { resolveNumber } from '../definition/param-values.js';
import type { CalibrationDefinition } from '../definition/strategy-schema.js';
import { levelAt, meanDefaultLogOdds, priorCalibration, type CalibrationSettings } from '../market/calibration-learner.js';
import type { Posterior } from '../market/logistic-correction.js';

/** The raw total log-odds of repayment to the calibrated total. */
export type CompiledCalibration = (logOdds: number) => number;

/** The value of rising points at `p`: straight lines between points, flat beyond the ends. */
export function interpolatePoints(points: ReadonlyArray<readonly [number, number]>, p: number): number {
  const first = points[0];
  const last = points[points.length - 1];
  if (first === undefined || last === undefined) return p;
  if (p <= first[0]) return first[1];
  if (p >= last[0]) return last[1];
  // A few dozen points at most: a scan is as fast as a search.
  for (let i = 1; i < points.length; i += 1) {
    const right = points[i] as readonly [number, number];
    if (p > right[0]) continue;
    const left = points[i - 1] as readonly [number, number];
    return left[1] + ((right[1] - left[1]) * (p - left[0])) / (right[0] - left[0]);
  }
  return last[1];
}

/**
 * The learned calibration as a map of the repayment log-odds L under the posterior of [a, b]:
 * logit(pd_score) = −L and η = a + b·(−L) is normal (levelAt). The default probability priced
 * with is the posterior's mean of σ(η), not σ of its mean: expected profit is linear in the
 * default probability, so its mean is what the price needs, and below one half σ(mean η) is lower
 * than that (the more so the less is known): priced so, a cold start would take the low end of
 * the level it is unsure of as its best guess. The calibrated repayment log-odds are minus the
 * mean's log-odds (meanDefaultLogOdds).
 */
export function learnedMap(posterior: Posterior, logOdds: number): number {
  const { mean, variance } = levelAt(posterior, logistic(-logOdds));
  return -meanDefaultLogOdds(mean, variance);
}

/** The compiled learned calibration's settings (its prior). */
export function calibrationSettingsOf(calibration: Extract<CalibrationDefinition, { method: 'learned' }>): CalibrationSettings {
  return { levelSd: calibration.level_sd, slopeSd: calibration.slope_sd, levelMean: calibration.level_mean };
}

/**
 * A fitted map; a learned calibration here is its seed followed by the prior (what it prices
 * with before any loan is seen; the score applies the learner's posterior instead).
 */
export function compileCalibration(calibration: CalibrationDefinition, params: Record<string, number>): CompiledCalibration {
  if (calibration.method === 'learned') {
    const seed = calibration.seed === undefined ? (logOdds: number) => logOdds : compileCalibration(calibration.seed, params);
    const prior = priorCalibration(calibrationSettingsOf(calibration));
    return (logOdds) => learnedMap(prior, seed(logOdds));
  }
  if (calibration.method === 'platt') {
    const a = resolveNumber(calibration.a, params);
    const b = resolveNumber(calibration.b, params);
    return (logOdds) => a * logOdds + b;
  }
  const points = calibration.points;
  return (logOdds) => {
    // logit(q, 0): no clamp, so a point mapped to 0 or 1 stays an infinite log-odds as before.
    const q = interpolatePoints(points, logistic(logOdds));
    return logit(q, 0);
  };
}
