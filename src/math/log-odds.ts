/**
 * Probabilities and their log-odds, the scale every score, calibration and learned correction
 * adds on: logistic(x) = 1 / (1 + e^-x) and its inverse logit(p) = ln(p / (1 - p)). One copy
 * here, so the engine's score, the learners and the backtest's checks turn log-odds into the
 * very same probabilities.
 */

/** Probabilities are kept this far from 0 and 1 before taking log-odds (a probability of exactly 0 stays finite). */
const EDGE = 1e-6;

/** The probability of log-odds `logOdds`. */
export function logistic(logOdds: number): number {
  return 1 / (1 + Math.exp(-logOdds));
}

/**
 * The log-odds of `probability`, clamped to [edge, 1 − edge] first so 0 and 1 stay finite. The
 * learners keep the default 1e-6; a fit over raw scores keeps its own narrower edge, and a caller
 * that wants ±Infinity at 0 and 1 passes 0.
 */
export function logit(probability: number, edge = EDGE): number {
  const p = Math.min(1 - edge, Math.max(edge, probability));
  return Math.log(p / (1 - p));
}
