/**
 * The learned level's position term (docs/market-model.md, "Which loans the level learned
 * from"): the calibration learner (calibration-learner.ts) with `position_sd` above 0 fits
 *
 *   logit P(default | won at u) = a + b · logit(pd_score) + c · (u − ū),   c ~ N(0, σc²)
 *
 * u the offered rate's position between 0.03 and the request's maximum (positionOf, as take-up
 * and the winner's curse use it), ū the mean position of the loans the level rests on. Without
 * it the level learned from loans won dear (where the better borrowers went elsewhere) is charged
 * to every price, cheaper ones too: the level rises, every price rises, and only worse borrowers
 * accept. With it, a lower price predicts the better borrowers a lower price wins.
 *
 * Centring at ū keeps a what it is without the term (the level of the loans won, at their typical
 * price), so c only moves prices away from that typical position; u rises with the score's risk
 * under expected-profit pricing, so c and b are partly confounded: the narrow prior on c keeps it
 * at 0 until the loans of one score band, won at different prices, fared differently.
 */
import type { Posterior } from './logistic-correction.js';

/** The position term as pricing reads it: the posterior mean of c, its sd and the centre ū. */
export interface PositionTerm {
  mean: number;
  sd: number;
  centre: number;
  /** Loans with a known position the term rests on. */
  loans: number;
}

/** Width of a band of u that final fates are counted in. */
export const POSITION_BAND = 0.1;

export function positionBandOf(position: number): number {
  return Math.round(Math.min(1, Math.max(0, position)) / POSITION_BAND);
}

/** One evidence term of the fit at (x, u − ū): its log-likelihood's gradient and curvature in η. */
export interface PositionedTerm {
  x: number;
  d: number;
  gradient: number;
  curvature: number;
}

/** The prior over [a, b, c]: its precision's diagonal and centre. */
export interface PositionedPrior {
  levelMean: number;
  levelSd: number;
  slopeSd: number;
  positionSd: number;
}

/**
 * One Newton step of the 3-parameter posterior mode at [a, b, c]: the step and the inverse
 * Hessian (the Laplace covariance), from the evidence terms at the current point.
 */
export function positionedStep(
  prior: PositionedPrior,
  at: readonly [number, number, number],
  terms: Iterable<PositionedTerm>,
): { step: [number, number, number]; cov: number[] } {
  const [a, b, c] = at;
  const pa = 1 / prior.levelSd ** 2;
  const pb = 1 / prior.slopeSd ** 2;
  const pc = 1 / prior.positionSd ** 2;
  const g = [-pa * (a - prior.levelMean), -pb * (b - 1), -pc * c];
  const h = [pa, 0, 0, 0, pb, 0, 0, 0, pc];
  for (const { x, d, gradient, curvature } of terms) {
    const v = [1, x, d];
    for (let i = 0; i < 3; i += 1) {
      g[i] = (g[i] as number) + gradient * (v[i] as number);
      for (let j = 0; j < 3; j += 1) h[i * 3 + j] = (h[i * 3 + j] as number) + curvature * (v[i] as number) * (v[j] as number);
    }
  }
  const cov = inverse3(h);
  const step: [number, number, number] = [0, 0, 0];
  for (let i = 0; i < 3; i += 1) {
    let sum = 0;
    for (let j = 0; j < 3; j += 1) sum += (cov[i * 3 + j] as number) * (g[j] as number);
    step[i] = sum;
  }
  return { step, cov };
}

/** The [a, b] marginal of a 3×3 covariance over [a, b, c], as the 2-parameter posterior stores it. */
export function levelMarginal(mean: readonly [number, number, number], cov: readonly number[]): Posterior {
  return { mean: [mean[0], mean[1]], cov: [cov[0] ?? 0, cov[1] ?? 0, cov[3] ?? 0, cov[4] ?? 0] };
}

/** The inverse of a symmetric positive-definite 3×3 matrix (row-major), by cofactors. */
function inverse3(m: readonly number[]): number[] {
  const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0, h = 0, i = 0] = m;
  const A = e * i - f * h;
  const B = -(d * i - f * g);
  const C = d * h - e * g;
  const det = a * A + b * B + c * C;
  return [
    A / det,
    -(b * i - c * h) / det,
    (b * f - c * e) / det,
    B / det,
    (a * i - c * g) / det,
    -(a * f - c * d) / det,
    C / det,
    -(a * h - b * g) / det,
    (a * e - b * d) / det,
  ];
}
