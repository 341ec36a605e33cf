/**
 * The take-up curve fitted from offers' fates (market-fit.ts gathers them): each observation is a
 * rate position u, the borrower's default probability pd, and whether the borrower took an offer
 * at that rate (1) or walked away from it (0). The curve is the market model's
 * (src/engine/market-response.ts):
 *
 *   P(took) = 1 / (1 + e^(S × (u − M))),  M = midpoint + midpointPerDefault × pd,
 *                                          S = steepness + steepnessPerDefault × pd.
 *
 * First the borrower-blind curve (per-default terms 0), an ordinary logistic regression on u. Then
 * the borrower-dependent one, by Fisher scoring from the blind one (the model is not linear in its
 * parameters: S × M). The borrower-dependent curve is kept only when a likelihood-ratio test says
 * the two extra parameters explain the fates beyond chance (LR_CRITICAL, 2 degrees of freedom,
 * p < 0.001), so a market where every borrower answers alike keeps a borrower-blind curve.
 */
import { fitLogistic, solveSpd } from './logistic-fit.js';

/** One observed fate. */
export interface TakeUpObservation {
  u: number;
  pd: number;
  took: 0 | 1;
}

export interface TakeUpCurveFit {
  midpoint: number;
  steepness: number;
  midpointPerDefault: number;
  steepnessPerDefault: number;
  /** 2 × (log-likelihood with the per-default terms − without): the likelihood-ratio statistic. */
  borrowerEvidence: number;
}

/** Chi-squared, 2 degrees of freedom, at p = 0.001. */
export const LR_CRITICAL = 13.82;
/** Fewer fates of either kind than this fit nothing. */
export const MIN_TAKE_UP_LINES = 20;

const sigmoid = (x: number): number => (x >= 0 ? 1 / (1 + Math.exp(-x)) : Math.exp(x) / (1 + Math.exp(x)));
/** ln P(y | η), without overflow. */
const logLikelihoodOf = (eta: number, y: 0 | 1): number => {
  const s = y === 1 ? eta : -eta;
  return s >= 0 ? -Math.log1p(Math.exp(-s)) : s - Math.log1p(Math.exp(s));
};

type Params = [midpoint: number, midpointPerDefault: number, steepness: number, steepnessPerDefault: number];

function eta(params: Params, o: TakeUpObservation): number {
  const [m0, m1, s0, s1] = params;
  return -(s0 + s1 * o.pd) * (o.u - m0 - m1 * o.pd);
}

function logLikelihood(params: Params, sample: readonly TakeUpObservation[]): number {
  let total = 0;
  for (const o of sample) total += logLikelihoodOf(eta(params, o), o.took);
  return total;
}

/** Fisher scoring for the four parameters, each step halved until the likelihood rises. */
function fitBorrowerDependent(sample: readonly TakeUpObservation[], start: Params): Params {
  let params = start;
  let current = logLikelihood(params, sample);
  for (let iteration = 0; iteration < 100; iteration += 1) {
    const g = [0, 0, 0, 0];
    const info = [0, 1, 2, 3].map(() => [0, 0, 0, 0]);
    for (const o of sample) {
      const [m0, m1, s0, s1] = params;
      const slope = s0 + s1 * o.pd;
      const gap = o.u - m0 - m1 * o.pd;
      // ∂η/∂(m0, m1, s0, s1)
      const j = [slope, slope * o.pd, -gap, -gap * o.pd];
      const p = sigmoid(-slope * gap);
      const w = p * (1 - p);
      for (let a = 0; a < 4; a += 1) {
        g[a] = (g[a] ?? 0) + (o.took - p) * (j[a] ?? 0);
        const row = info[a] as number[];
        for (let b = 0; b < 4; b += 1) row[b] = (row[b] ?? 0) + w * (j[a] ?? 0) * (j[b] ?? 0);
      }
    }
    // A whisper of ridge keeps the step finite where the information is flat.
    const step = solveSpd(
      info.map((row, a) => row.map((value, b) => (a === b ? value + 1e-9 : value))),
      g,
    );
    if (step === null) return params;
    let scale = 1;
    let next = params.map((value, k) => value + (step[k] ?? 0)) as Params;
    let nextLikelihood = logLikelihood(next, sample);
    while (nextLikelihood < current && scale > 1e-6) {
      scale /= 2;
      next = params.map((value, k) => value + scale * (step[k] ?? 0)) as Params;
      nextLikelihood = logLikelihood(next, sample);
    }
    if (nextLikelihood < current) return params;
    const moved = Math.max(...step.map((value) => Math.abs(value * scale)));
    params = next;
    current = nextLikelihood;
    if (moved < 1e-9) break;
  }
  return params;
}

/** Six decimals: the precision a fitted coefficient is written with (the market file). */
export const round = (value: number): number => Number(value.toFixed(6));

/** The take-up curve of a sample, or why it cannot be fitted. */
export function fitTakeUpCurve(sample: readonly TakeUpObservation[]): TakeUpCurveFit | string {
  const took = sample.filter((o) => o.took === 1).length;
  const walked = sample.length - took;
  if (took < MIN_TAKE_UP_LINES || walked < MIN_TAKE_UP_LINES) {
    return `${took} offers taken and ${walked} not taken (each needs ${MIN_TAKE_UP_LINES})`;
  }
  // A whisper of penalty keeps the fit finite if every refusal lies above every take.
  const blind = fitLogistic(
    sample.map((o) => [1, o.u]),
    sample.map((o) => o.took),
    { l2: 1e-6 },
  );
  const [a = 0, b = 0] = blind.weights;
  const steepness = -b;
  let blindLikelihood = 0;
  for (const o of sample) blindLikelihood += logLikelihoodOf(a + b * o.u, o.took);
  // The likelihood is not concave in these parameters: Fisher scoring starts from the blind curve
  // and from a small grid of curves (low and high midpoints, gentle and steep, rising with pd or
  // not), and the best end wins. The blind curve alone is not enough where better borrowers both
  // get lower rates and walk away more: overall, refusals then seem to fall with the rate.
  const starts: Params[] = steepness > 0 ? [[a / steepness, 0, steepness, 0]] : [];
  for (const m0 of [0.2, 0.5, 0.8]) for (const m1 of [0, 2]) for (const s0 of [3, 10]) starts.push([m0, m1, s0, 0]);
  let dependent: Params = starts[0] ?? [0.5, 0, 1, 0];
  let best = Number.NEGATIVE_INFINITY;
  for (const start of starts) {
    const candidate = fitBorrowerDependent(sample, start);
    const likelihood = logLikelihood(candidate, sample);
    if (likelihood > best) {
      best = likelihood;
      dependent = candidate;
    }
  }
  const borrowerEvidence = 2 * (best - blindLikelihood);
  const pds = sample.map((o) => o.pd).sort((x, y) => x - y);
  const medianPd = pds[Math.floor(pds.length / 2)] ?? 0;
  const [m0, m1, s0, s1] = dependent;
  // The borrower-dependent curve must still fall with the rate for the typical borrower.
  if (borrowerEvidence > LR_CRITICAL && s0 + s1 * medianPd > 0) {
    return {
      midpoint: round(m0),
      midpointPerDefault: round(m1),
      steepness: round(s0),
      steepnessPerDefault: round(s1),
      borrowerEvidence: round(borrowerEvidence),
    };
  }
  if (!(steepness > 0)) return `refusals do not rise with the rate (slope ${b.toFixed(3)})`;
  return {
    midpoint: round(a / steepness),
    steepness: round(steepness),
    midpointPerDefault: 0,
    steepnessPerDefault: 0,
    borrowerEvidence: round(Math.max(0, borrowerEvidence)),
  };
}
