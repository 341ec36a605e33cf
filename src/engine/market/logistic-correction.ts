/**
 * The learned correction to the configured take-up (docs/market-model.md, "Learning while
 * live"): a Bayesian logistic regression over the prior's log-odds,
 *
 *   logit P(accept | rate, borrower) = logit P_prior(rate, max, pd) + θ · x,   x = [1, u, pd, u·pd]
 *
 * with u the rate's position between 0.03 and the request's maximum and pd the default
 * probability. θ ~ N(0, σ² I) before any fate is seen (σ: how far the prior may be wrong); each
 * observed fate (accepted 1, anything else 0) updates the Gaussian by one Newton step at the
 * current mean (Spiegelhalter and Lauritzen 1990; the online Laplace of Chapelle and Li 2011,
 * with the full 4×4 covariance so the terms' evidence is shared honestly). The pd and u·pd
 * terms let a world where better borrowers are more rate-sensitive be learned.
 */
import { logistic, MIN_OFFER_RATE } from '../../math/index.js';

/** Terms of x, in order. */
const CORRECTION_TERMS = ['intercept', 'position', 'default', 'position_x_default'] as const;
const SIZE = CORRECTION_TERMS.length;
// The algebra below takes its size from the posterior (n = mean.length), so another correction
// with other terms (the winner's curse, repay-curse.ts) reuses it; SIZE is only the take-up's.

/** A Gaussian over θ: mean and covariance (row-major SIZE × SIZE). */
export interface Posterior {
  mean: number[];
  cov: number[];
}

/** What one offer contributes to the fit: its terms and the prior's log-odds at its rate. */
export interface LearningObservation {
  /** The rate's position between 0.03 (0) and the request's maximum (1). */
  position: number;
  /** The borrower's default probability (1 − the score's repayment probability). */
  defaultProbability: number;
  /** The prior's log-odds of acceptance at the offered rate. */
  priorLogit: number;
}

/** The prior N(0, sd² I), over `size` terms (the take-up correction's four by default). */
export function priorPosterior(sd: number, size: number = SIZE): Posterior {
  const cov = new Array<number>(size * size).fill(0);
  for (let i = 0; i < size; i += 1) cov[i * size + i] = sd * sd;
  return { mean: new Array<number>(size).fill(0), cov };
}

/** x for a position and default probability. */
function termsOf(position: number, defaultProbability: number): number[] {
  return [1, position, defaultProbability, position * defaultProbability];
}

/** The rate's position, as market-response.ts's ratePosition (1 when the maximum is at the floor). */
export function positionOf(rate: number, maxRate: number): number {
  return maxRate > MIN_OFFER_RATE ? (rate - MIN_OFFER_RATE) / (maxRate - MIN_OFFER_RATE) : 1;
}

function dot(a: readonly number[], b: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < b.length; i += 1) sum += (a[i] ?? 0) * (b[i] ?? 0);
  return sum;
}

/** cov · x (cov n × n, n = x.length). */
function covTimes(cov: readonly number[], x: readonly number[]): number[] {
  const n = x.length;
  const out = new Array<number>(n).fill(0);
  for (let i = 0; i < n; i += 1) {
    let sum = 0;
    for (let j = 0; j < n; j += 1) sum += (cov[i * n + j] ?? 0) * (x[j] ?? 0);
    out[i] = sum;
  }
  return out;
}

/** θ·x and xᵀΣx for any terms x. */
function correctionOf(posterior: Posterior, x: readonly number[]): { mean: number; variance: number } {
  return { mean: dot(posterior.mean, x), variance: Math.max(0, dot(x, covTimes(posterior.cov, x))) };
}

/** The correction's mean θ·x and variance xᵀΣx at one position and default probability. */
export function correctionAt(posterior: Posterior, position: number, defaultProbability: number): { mean: number; variance: number } {
  return correctionOf(posterior, termsOf(position, defaultProbability));
}

/**
 * The posterior predictive chance of acceptance, by the probit approximation
 * σ(μ / √(1 + π s² / 8)) (MacKay 1992): uncertainty pulls the chance towards one half.
 */
export function predictive(priorLogit: number, correctionMean: number, correctionVariance: number): number {
  return logistic((priorLogit + correctionMean) / Math.sqrt(1 + (Math.PI * correctionVariance) / 8));
}

/**
 * The posterior after one fate: a Newton step of the log posterior at the current mean, which
 * for one observation is a rank-one update of the covariance (Sherman–Morrison).
 */
export function updated(posterior: Posterior, observation: LearningObservation, accepted: boolean): Posterior {
  return updatedAt(posterior, termsOf(observation.position, observation.defaultProbability), observation.priorLogit, accepted);
}

/** updated() for any terms x over an offset log-odds: the one Laplace step every correction shares. */
export function updatedAt(posterior: Posterior, x: readonly number[], offsetLogit: number, outcome: boolean): Posterior {
  const n = x.length;
  const p = logistic(offsetLogit + dot(posterior.mean, x));
  const weight = Math.max(p * (1 - p), 1e-9);
  const sx = covTimes(posterior.cov, x);
  const denominator = 1 + weight * dot(x, sx);
  const cov = posterior.cov.slice();
  for (let i = 0; i < n; i += 1) {
    for (let j = 0; j < n; j += 1) cov[i * n + j] = (cov[i * n + j] ?? 0) - (weight * (sx[i] ?? 0) * (sx[j] ?? 0)) / denominator;
  }
  const residual = (outcome ? 1 : 0) - p;
  const step = covTimes(cov, x);
  const mean = posterior.mean.map((value, i) => value + (step[i] ?? 0) * residual);
  return { mean, cov };
}

/** A draw of θ from the posterior, from SIZE standard normal numbers (Cholesky factor times z). */
export function drawFrom(posterior: Posterior, normals: readonly number[]): number[] {
  const lower = cholesky(posterior.cov);
  return posterior.mean.map((value, i) => {
    let sum = value;
    for (let j = 0; j <= i; j += 1) sum += (lower[i * SIZE + j] ?? 0) * (normals[j] ?? 0);
    return sum;
  });
}

/** The lower Cholesky factor; a pivot worn to nothing by rounding is taken as zero. */
function cholesky(cov: readonly number[]): number[] {
  const lower = new Array<number>(SIZE * SIZE).fill(0);
  for (let i = 0; i < SIZE; i += 1) {
    for (let j = 0; j <= i; j += 1) {
      let sum = cov[i * SIZE + j] ?? 0;
      for (let k = 0; k < j; k += 1) sum -= (lower[i * SIZE + k] ?? 0) * (lower[j * SIZE + k] ?? 0);
      if (i === j) lower[i * SIZE + i] = sum > 0 ? Math.sqrt(sum) : 0;
      else {
        const pivot = lower[j * SIZE + j] ?? 0;
        lower[i * SIZE + j] = pivot > 0 ? sum / pivot : 0;
      }
    }
  }
  return lower;
}
