/**
 * Where the market's price sits, learned from our offers' fates (`pricing.learning.market_price`;
 * docs/market-model.md, "Learning where the market's price sits"). A lost offer at rate r says the
 * winning price was below r (or the borrower declined at r); read as a level shift in the take-up
 * correction it lowers acceptance at every rate alike and never teaches that a lower rate wins.
 * So two more terms join the correction's posterior, in the configured competition itself:
 *
 *   η    the share of requests another lender prices (logit of `share` shifted by η)
 *   δ_k  where that lender's price sits for risk level k (the competing rate's mean shifted by
 *        δ_k competing-rate standard deviations)
 *
 * P(accept | r) = take-up(r) × (1 − s + s Φ((m_k − r) / sd)) is not linear in η and δ, so each
 * fate and each price linearises it at the posterior's current mean (an extended Kalman step in
 * the same online Laplace update: logistic-correction.ts's updatedAt with the linearised terms).
 */
import { logistic, logit, MIN_OFFER_RATE } from '../../math/index.js';
import { competingRateSd, normalCdf, takeUpAt, type MarketResponse } from '../market-response.js';

/** The take-up correction's own terms (logistic-correction.ts): 1, u, pd, u·pd. */
const TAKE_UP_TERMS = 4;
/** Risk levels 0 to 4 (domain/risk-levels.ts), each with its own δ. */
const RISK_LEVELS = 5;
/** The posterior's size with the market's price learned: θ, η, then δ_0..δ_4. */
export const LOCATED_SIZE = TAKE_UP_TERMS + 1 + RISK_LEVELS + 1;
const SPREAD_TERM = TAKE_UP_TERMS + 1 + RISK_LEVELS;
/** Below this P(1 − P) the log-odds' slope is not trusted (a rate nobody takes, or everybody). */
const FLAT = 1e-6;

/** The linearised model at one rate: the log-odds at the current mean less its η, δ part, and the terms. */
export interface LocatedTerms {
  offsetLogit: number;
  x: number[];
}

/**
 * P(accept | rate) with the competition moved by η and δ (`mean`'s entries 4 and 5 + level),
 * linearised there: logit P ≈ offsetLogit + θ·x with x = [1, u, pd, u·pd, ∂/∂η, …, ∂/∂δ_k, …].
 */
export function locatedCurve(
  maxRate: number,
  defaultProbability: number,
  riskLevel: number,
  market: MarketResponse,
  mean: readonly number[],
): (rate: number) => LocatedTerms {
  const level = levelOf(riskLevel);
  const eta = mean[TAKE_UP_TERMS] ?? 0;
  const delta = mean[TAKE_UP_TERMS + 1 + level] ?? 0;
  const { share } = market.competition;
  // A share of exactly 0 or 1 is a statement, not a guess: η does not move it.
  const shareMoves = share > 0 && share < 1;
  const s = shareMoves ? logistic(logit(share) + eta) : share;
  const zeta = mean[SPREAD_TERM] ?? 0;
  const sd = Number(process.env.DBG_SPREAD ?? competingRateSd(market.competition)) * Math.exp(zeta);
  const centre = learnedMarketPrice(market, defaultProbability, level, mean);
  const { midpoint, steepness } = takeUpAt(market.takeUp, defaultProbability);
  const positionRange = maxRate - MIN_OFFER_RATE;
  return (rate) => {
    const position = positionRange > 0 ? (rate - MIN_OFFER_RATE) / positionRange : 1;
    const takeUp = logistic(-steepness * (position - midpoint));
    const z = sd > 0 ? (centre - rate) / sd : rate <= centre ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
    const beaten = sd > 0 ? normalCdf(z) : z > 0 ? 1 : 0;
    const p = takeUp * (1 - s + s * beaten);
    const spread = p * (1 - p);
    const flat = !(spread > FLAT) || !(sd > 0);
    const byShare = flat || !shareMoves ? 0 : (-takeUp * (1 - beaten) * s * (1 - s)) / spread;
    const byLocation = flat ? 0 : (takeUp * s * Math.exp((-z * z) / 2)) / Math.sqrt(2 * Math.PI) / spread;
    const x = new Array<number>(LOCATED_SIZE).fill(0);
    x[0] = 1;
    x[1] = position;
    x[2] = defaultProbability;
    x[3] = position * defaultProbability;
    x[TAKE_UP_TERMS] = process.env.DBG_PART === 'place' ? 0 : byShare;
    const bySpread =
      process.env.DBG_ZETA === '1' && !flat ? (-takeUp * s * z * Math.exp((-z * z) / 2)) / Math.sqrt(2 * Math.PI) / spread : 0;
    const byLocationSd = byLocation * Math.exp(-zeta);
    x[TAKE_UP_TERMS + 1 + level] = process.env.DBG_PART === 'share' ? 0 : byLocationSd;
    x[SPREAD_TERM] = bySpread;
    return { offsetLogit: logit(p) - byShare * eta - byLocationSd * delta - bySpread * zeta, x };
  };
}

/** The competing price's learned centre for a request (`mean`: the posterior's), where a lost offer says it sits below. */
export function learnedMarketPrice(market: MarketResponse, defaultProbability: number, riskLevel: number, mean: readonly number[]): number {
  const { intercept, perDefault } = market.competition;
  return (
    intercept +
    perDefault * defaultProbability +
    (mean[TAKE_UP_TERMS + 1 + levelOf(riskLevel)] ?? 0) * Number(process.env.DBG_SPREAD ?? competingRateSd(market.competition))
  );
}

/** A risk level as an index of δ (an unknown one counts as low). */
function levelOf(riskLevel: number): number {
  return Number.isFinite(riskLevel) ? Math.min(RISK_LEVELS - 1, Math.max(0, Math.round(riskLevel))) : 0;
}
