/**
 * When in a loan's life defaults happen (docs/market-model.md, "Learning the default level"):
 * F(t), the share of a term's defaults that happen by age t (a fraction of the term, 0 to 1).
 * A loan that has paid k of its T instalments on time is evidence against default only as far
 * as F(k/T) of the defaults it could still make have had their chance: it contributes
 * 1 − p·F(k/T) to the likelihood of the calibration learner (calibration-learner.ts).
 *
 * Learned as a piecewise constant hazard over TIMING_BINS equal slices of the term, from the
 * defaults seen and the loan-time at risk in each slice (censored loans count their time at risk
 * and nothing else, so young books do not make every default look early), each slice shrunk
 * towards the pooled hazard by PRIOR_LOANS loans' worth of pseudo-exposure. A constant hazard
 * gives F(t) ≈ t, which is where it starts: with no default seen, F(t) = t exactly.
 */

/** Slices of a term the hazard is learned over. */
export const TIMING_BINS = 12;
/** Loans' worth of exposure each slice's hazard is shrunk with towards the prior's shape. */
const PRIOR_LOANS = 50;
/**
 * F(t) = t^PRIOR_SHAPE before any default is seen, and the shape each slice is shrunk towards
 * (1: defaults spread evenly over the term; above 1, later in it, which makes early survival
 * weaker evidence). On the sandbox's shapes 1.5 and 2 moved the second-half prediction by less
 * than its noise on a few dozen loans (bench/calibration-learning.ts), so the plain one stays.
 */
const PRIOR_SHAPE = 1;

function priorShare(age: number): number {
  return Math.max(0, Math.min(1, age)) ** PRIOR_SHAPE;
}

/** Defaults and exposure (loan-terms at risk) by slice of the term, as plain data. */
export interface DefaultTiming {
  defaults: number[];
  exposure: number[];
}

export function emptyTiming(): DefaultTiming {
  return { defaults: new Array<number>(TIMING_BINS).fill(0), exposure: new Array<number>(TIMING_BINS).fill(0) };
}

/** Adds the time at risk between ages `from` and `to` (fractions of the term). */
export function addExposure(timing: DefaultTiming, from: number, to: number): void {
  const low = Math.max(0, Math.min(1, from));
  const high = Math.max(low, Math.min(1, to));
  for (let bin = 0; bin < TIMING_BINS; bin += 1) {
    const start = bin / TIMING_BINS;
    const end = (bin + 1) / TIMING_BINS;
    const overlap = Math.min(high, end) - Math.max(low, start);
    if (overlap > 0) timing.exposure[bin] = (timing.exposure[bin] ?? 0) + overlap;
  }
}

/** Counts a default at age `at` (the missed instalment's share of the term). */
export function addDefault(timing: DefaultTiming, at: number): void {
  const bin = Math.min(TIMING_BINS - 1, Math.max(0, Math.ceil(Math.min(1, at) * TIMING_BINS) - 1));
  timing.defaults[bin] = (timing.defaults[bin] ?? 0) + 1;
}

/** F as a function of age, from the timing's current counts (cheap: TIMING_BINS numbers). */
export function defaultShareBy(timing: DefaultTiming): (age: number) => number {
  const totalDefaults = timing.defaults.reduce((sum, value) => sum + value, 0);
  if (totalDefaults === 0) return priorShare;
  // The prior's hazard shape (rising as PRIOR_SHAPE says), scaled so it expects the defaults seen.
  const shape = Array.from({ length: TIMING_BINS }, (_, bin) => PRIOR_SHAPE * ((bin + 0.5) / TIMING_BINS) ** (PRIOR_SHAPE - 1));
  const expected = timing.exposure.reduce((sum, exposure, bin) => sum + exposure * (shape[bin] ?? 1), 0);
  const pooled = totalDefaults / Math.max(expected, 1e-9);
  const pseudo = PRIOR_LOANS / TIMING_BINS;
  const hazards = timing.defaults.map(
    (defaults, bin) => (defaults + pseudo * pooled * (shape[bin] ?? 1)) / ((timing.exposure[bin] ?? 0) + pseudo),
  );
  // Cumulative hazard at each slice's start.
  const cumulative = [0];
  for (let bin = 0; bin < TIMING_BINS; bin += 1) cumulative.push((cumulative[bin] ?? 0) + (hazards[bin] ?? 0) / TIMING_BINS);
  const hazardAt = (age: number): number => {
    const clipped = Math.max(0, Math.min(1, age));
    const bin = Math.min(TIMING_BINS - 1, Math.floor(clipped * TIMING_BINS));
    return (cumulative[bin] ?? 0) + (hazards[bin] ?? 0) * (clipped - bin / TIMING_BINS);
  };
  const whole = -Math.expm1(-hazardAt(1));
  if (!(whole > 0)) return priorShare;
  return (age) => -Math.expm1(-hazardAt(age)) / whole;
}
