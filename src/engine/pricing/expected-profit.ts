/**
 * Expected-profit pricing (docs/strategies.md, "pricing"): for one request, the rate r in
 * [break-even, cap] that maximises
 *
 *   P(accept | r) × (expected collected at r − funded × (1 + target_return × terms / 12))
 *
 * P(accept | r) is expectedAcceptProbability (market-response.ts): take-up falls as r nears the
 * request's maximum, and a competitor may offer below r. The expected collected amount is the
 * cost-plus arithmetic of loan-math.ts. The product is smooth but need not have a single peak
 * (undercutting the competition, or charging the borrowers nobody else serves), so the search
 * samples the whole range more finely than the curve's narrowest feature, pins each peak the
 * samples show (peak-search.ts) and compares the 4-decimal rates around it: the rate a search
 * over every 0.0001 would choose, in a few dozen evaluations.
 */
import {
  collectedShare,
  expectedAnnualReturn,
  expectedProfitCents,
  fastPaymentFactor,
  hurdleCents,
  MIN_OFFER_RATE,
  type LoanEconomics,
} from '../../math/index.js';
import { competingRateSd, expectedAcceptCurve, expectedAcceptProbability, type MarketResponse } from '../market-response.js';
import { extraSteepness, learnedAcceptCurve, type LearnedCurve } from '../market/learned-accept.js';
import { maximiseNear } from './peak-search.js';
import { economicsAt, type CurseCurve } from './won-economics.js';

/**
 * The coarse samples: SAMPLES_PER_FEATURE to the curve's narrowest feature (the competing
 * rate's standard deviation, or the take-up curve's scale (max_interest_rate − 0.03) /
 * steepness), never further apart than COARSEST_STEP nor closer than FINEST_STEP. A feature
 * narrower than FINEST_STEP (a competitor at one exact rate) is a step in the curve, which the
 * peak search still pins from the sample before it.
 */
const SAMPLES_PER_FEATURE = 2;
const COARSEST_STEP = 0.05;
const FINEST_STEP = 0.005;

/** Everything the expected profit at a rate depends on, for one request: enough to redraw the curve. */
export interface PriceCurve {
  economics: LoanEconomics;
  /** The hurdle: expected annual return the capital must earn before a loan counts as profit. */
  targetReturn: number;
  maxInterestRate: number;
  market: MarketResponse;
  /** The rate whose expected collected amount exactly covers the hurdle (unrounded). */
  breakEvenRate: number;
  /** The lowest rate searched: the break-even rounded up to 4 decimals, at least 0.03. */
  low: number;
  /** The highest rate searched, and the setting it comes from. */
  cap: number;
  capName: string;
  /**
   * The learned correction to `market` the strategy priced with (`pricing.learning`): then
   * P(accept | r) is the posterior predictive over it (market/learned-accept.ts).
   */
  learning?: LearnedCurve;
  /**
   * The winner's curse the strategy priced with (`pricing.winners_curse`): then the expected
   * collected amount at r uses P(repay | won at r) (won-economics.ts), not the score's chance.
   */
  curse?: CurseCurve;
}

/** P(accept | rate) for the curve's request: the market response's, or the learned one over it. */
function acceptCurveOf(curve: PriceCurve): (rate: number) => number {
  const defaultProbability = 1 - curve.economics.probability;
  if (curve.learning === undefined) return expectedAcceptCurve(curve.maxInterestRate, defaultProbability, curve.market);
  return learnedAcceptCurve(curve.maxInterestRate, defaultProbability, curve.market, curve.learning.posterior);
}

/** The curve at one rate; amounts in (unrounded) cents. */
export interface CurvePoint {
  rate: number;
  acceptProbability: number;
  /** Expected collected minus the hurdle, if the offer is accepted. */
  profitCents: number;
  /** acceptProbability × profitCents: what the offer is worth before the borrower answers. */
  valueCents: number;
  /** Expected annual return on the funded amount, if accepted. */
  expectedReturn: number;
}

/** Rounds to 4 decimals, so listed rates are the rates an offer would carry. */
function round4(rate: number): number {
  return Math.round(rate * 10_000) / 10_000;
}

/**
 * The curve's value function, with everything that does not depend on the rate computed once:
 * per request it runs a few dozen times, and tuning prices thousands of requests a second.
 */
function valueFunction(curve: PriceCurve): (rate: number) => number {
  const { economics, maxInterestRate, market } = curve;
  const collectedPerFactor = economics.repaidPrincipalCents * economics.terms * collectedShare(economics);
  const hurdle = hurdleCents(curve.targetReturn, economics);
  const accept =
    curve.learning === undefined ? expectedAcceptCurve(maxInterestRate, 1 - economics.probability, market) : acceptCurveOf(curve);
  const terms = economics.terms;
  const curse = curve.curse;
  if (curse !== undefined) {
    const perFactor = economics.repaidPrincipalCents * terms;
    return (rate) =>
      accept(rate) *
      (perFactor * collectedShare(economicsAt(economics, rate, maxInterestRate, curse)) * fastPaymentFactor(rate, terms) - hurdle);
  }
  return (rate) => accept(rate) * (collectedPerFactor * fastPaymentFactor(rate, terms) - hurdle);
}

/** The curve at `rate`, with its parts; for explanations (the search uses valueFunction). */
export function curvePoint(curve: PriceCurve, rate: number): CurvePoint {
  const { economics } = curve;
  const acceptProbability =
    curve.learning === undefined
      ? expectedAcceptProbability(rate, curve.maxInterestRate, 1 - economics.probability, curve.market)
      : acceptCurveOf(curve)(rate);
  // With a winner's curse, P(repay | won at rate) replaces the score's chance (won-economics.ts).
  const won = economicsAt(economics, rate, curve.maxInterestRate, curve.curse);
  const profitCents = expectedProfitCents(rate, curve.targetReturn, won);
  const expectedReturn = expectedAnnualReturn(rate, won);
  return { rate, acceptProbability, profitCents, valueCents: acceptProbability * profitCents, expectedReturn };
}

/** The distance between coarse samples for this curve (see SAMPLES_PER_FEATURE). */
function coarseStep(curve: PriceCurve): number {
  const { takeUp, competition } = curve.market;
  let feature = Number.POSITIVE_INFINITY;
  const positions = curve.maxInterestRate - MIN_OFFER_RATE;
  // A learned correction may steepen the take-up by up to its own slope in the position.
  const extra = curve.learning === undefined ? 0 : extraSteepness(curve.learning.posterior, 1 - curve.economics.probability);
  const steepness = Math.abs(takeUp.steepness) + extra;
  if (steepness !== 0 && positions > 0) feature = positions / steepness;
  if (competition.share !== 0) feature = Math.min(feature, competingRateSd(competition));
  const step = feature / SAMPLES_PER_FEATURE;
  return step >= FINEST_STEP ? Math.min(step, COARSEST_STEP) : FINEST_STEP;
}

/** The coarse sample `index` of `count` steps of `step` from `low`; the last is the cap itself. */
function sampleRate(index: number, count: number, low: number, step: number, cap: number): number {
  return index >= count ? cap : low + index * step;
}

/**
 * The rate in [curve.low, curve.cap] with the highest P(accept) × profit, among the rates an
 * offer may carry: every 0.0001, and the cap. Samples the range (coarseStep); each sample higher
 * than the one before and not lower than the one after marks a peak between its neighbours,
 * which maximiseNear pins to its best 4-decimal rate; the best peak wins (the lower rate on a
 * tie). Assumes low <= cap.
 */
export function optimalRate(curve: PriceCurve): CurvePoint {
  const { low, cap } = curve;
  if (!(cap > low)) return curvePoint(curve, low);
  const value = valueFunction(curve);
  const count = Math.ceil((cap - low) / coarseStep(curve));
  const step = (cap - low) / count;
  let best = low;
  let bestValue = Number.NEGATIVE_INFINITY;
  let before = Number.NEGATIVE_INFINITY;
  let current = value(low);
  for (let index = 0; index <= count; index += 1) {
    const after = index < count ? value(sampleRate(index + 1, count, low, step, cap)) : Number.NEGATIVE_INFINITY;
    if (current > before && current >= after) {
      const peak = maximiseNear(
        value,
        sampleRate(Math.max(0, index - 1), count, low, step, cap),
        sampleRate(index, count, low, step, cap),
        sampleRate(index + 1, count, low, step, cap),
        current,
        low,
        cap,
      );
      if (peak.value > bestValue || (peak.value === bestValue && peak.rate < best)) {
        best = peak.rate;
        bestValue = peak.value;
      }
    }
    before = current;
    current = after;
  }
  return curvePoint(curve, best);
}

/**
 * `count` rates spread evenly from low to cap (rounded to 4 decimals), with `chosen` added:
 * the rows `strategy explain` prints.
 */
export function curveRates(curve: PriceCurve, chosen: number, count = 8): number[] {
  const { low, cap } = curve;
  const rates = new Set<number>([chosen]);
  for (let index = 0; index < count; index += 1) {
    const rate = count === 1 ? low : low + ((cap - low) * index) / (count - 1);
    rates.add(index === count - 1 ? cap : Math.min(cap, round4(rate)));
  }
  return [...rates].sort((a, b) => a - b);
}
