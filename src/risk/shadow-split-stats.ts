/**
 * When is the difference between the two arms of a live split real? A mixture sequential
 * probability ratio test (mSPRT) on the difference of the arms' mean per-loan return, after
 * Johari, Pekelis and Walsh, "Always valid inference: continuous monitoring of A/B tests"
 * (Operations Research 70(3), 2022; arXiv:1512.04922), section 4: with the difference estimate
 * Δ = mean_b − mean_a and its variance V = s²(1/n_a + 1/n_b), and a normal mixture N(0, τ²) over
 * the true difference, the likelihood ratio against "no difference" is
 *
 *   Λ = sqrt(V / (V + τ²)) · exp(τ² Δ² / (2 V (V + τ²)))
 *
 * and rejecting when Λ ≥ 1/α keeps the chance of ever declaring a difference between equal arms
 * below α however often it is looked at (the daemon looks after every resolved loan). The
 * matching always-valid interval is Δ ± sqrt(V (V + τ²) / τ² · (2 ln(1/α) + ln((V + τ²) / V))).
 *
 * s² is the pooled sample variance (a plug-in, as in the paper's practical version), so the
 * guarantee is approximate on very small samples: the test says "not yet" until each arm has
 * MIN_RESOLVED resolved loans.
 */

/** Resolved loans each arm needs before the test speaks. */
const MIN_RESOLVED = 30;
/** The false-alarm bound. */
export const DEFAULT_ALPHA = 0.05;
/** The mixture's spread over the true difference of per-loan returns (a few points of return). */
const DEFAULT_TAU = 0.05;

export interface ArmSample {
  name: string;
  /** Per-loan returns of resolved loans: (received − lent) / lent. */
  returns: readonly number[];
}

export type SplitVerdict =
  | { kind: 'not_yet'; reason: string; counts: [number, number] }
  | {
      kind: 'no_difference_yet' | 'different';
      counts: [number, number];
      means: [number, number];
      /** mean of the second arm minus mean of the first. */
      difference: number;
      /** Always-valid interval for the difference at 1 − alpha. */
      interval: [number, number];
      likelihoodRatio: number;
      /** The arm with the higher mean when `different`. */
      better?: string;
    };

function mean(values: readonly number[]): number {
  let sum = 0;
  for (const value of values) sum += value;
  return sum / values.length;
}

function squaredDeviations(values: readonly number[], centre: number): number {
  let sum = 0;
  for (const value of values) sum += (value - centre) ** 2;
  return sum;
}

/** The mSPRT verdict on two arms' per-loan returns. */
export function splitVerdict(
  a: ArmSample,
  b: ArmSample,
  options: { alpha?: number; tau?: number; minResolved?: number } = {},
): SplitVerdict {
  const alpha = options.alpha ?? DEFAULT_ALPHA;
  const tau = options.tau ?? DEFAULT_TAU;
  const minResolved = options.minResolved ?? MIN_RESOLVED;
  const counts: [number, number] = [a.returns.length, b.returns.length];
  if (counts[0] < minResolved || counts[1] < minResolved) {
    return {
      kind: 'not_yet',
      counts,
      reason: `not yet: ${counts[0]} and ${counts[1]} resolved loans, the test speaks from ${minResolved} in each arm`,
    };
  }
  const means: [number, number] = [mean(a.returns), mean(b.returns)];
  const pooled = (squaredDeviations(a.returns, means[0]) + squaredDeviations(b.returns, means[1])) / (counts[0] + counts[1] - 2);
  // A variance of zero (every loan returned the same) would make any difference infinitely sure.
  const variance = Math.max(pooled, 1e-12) * (1 / counts[0] + 1 / counts[1]);
  const difference = means[1] - means[0];
  const tau2 = tau * tau;
  const logRatio = 0.5 * Math.log(variance / (variance + tau2)) + (tau2 * difference * difference) / (2 * variance * (variance + tau2));
  const halfWidth = Math.sqrt(((variance * (variance + tau2)) / tau2) * (2 * Math.log(1 / alpha) + Math.log((variance + tau2) / variance)));
  const different = logRatio >= Math.log(1 / alpha);
  return {
    kind: different ? 'different' : 'no_difference_yet',
    counts,
    means,
    difference,
    interval: [difference - halfWidth, difference + halfWidth],
    likelihoodRatio: Math.exp(logRatio),
    ...(different ? { better: difference > 0 ? b.name : a.name } : {}),
  };
}

/** One line for status and the report. */
export function splitVerdictText(a: string, b: string, verdict: SplitVerdict): string {
  if (verdict.kind === 'not_yet') return verdict.reason;
  const points = (value: number) => `${(value * 100).toFixed(2)} %`;
  const range = `${b} − ${a}: ${points(verdict.difference)} per loan (always-valid interval ${points(verdict.interval[0])} to ${points(verdict.interval[1])}, n = ${verdict.counts[0]} and ${verdict.counts[1]})`;
  return verdict.kind === 'different' ? `different: ${verdict.better} returns more; ${range}` : `no difference shown yet; ${range}`;
}
