/**
 * Expected-profit pricing (docs/strategies.md, "pricing"): for one request, the rate r in
 * [break-even, cap] that maximises
 *
 *   P(accept | r) × (expected collected at r − funded × (1 + target_return × terms / 12))
 *
 * P(accept | r) is expectedAcceptProbability (market-response.ts): take-up falls as r nears the
 * request's maximum, and a competitor may offer below r. The expected collected amount is the
 * cost-plus arithmetic of loan-math.ts. The product need not have a single peak (undercutting
 * the competition, or charging the borrowers nobody else serves), so the search is a grid over
 * the whole range, then finer ones around the best rate found (SEARCH_STEPS).
 */
import { collectedShare, expectedAnnualReturn, expectedProfitCents, hurdleCents, paymentFactor, type LoanEconomics } from '../loan-math.js';
import { expectedAcceptCurve, expectedAcceptProbability, type MarketResponse } from '../market-response.js';

/**
 * The steps of the search: the whole range every 0.005, then every 0.0005 around the best, then
 * every 0.0001 (the 4 decimals an offered rate carries). A peak narrower than 0.005 could be
 * missed; the curve's features are as wide as the competing rate's spread or the take-up
 * curve's scale, (max_interest_rate − 0.03) / steepness, both far wider with sane settings.
 */
export const SEARCH_STEPS = [0.005, 0.0005, 0.0001] as const;

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

/** Rounds to 4 decimals, so grid rates are the rates an offer would carry. */
function round4(rate: number): number {
  return Math.round(rate * 10_000) / 10_000;
}

/**
 * The curve's value function, with everything that does not depend on the rate computed once:
 * per request it runs a few hundred times, and tuning prices thousands of requests a second.
 */
function valueFunction(curve: PriceCurve): (rate: number) => number {
  const { economics, maxInterestRate, market } = curve;
  const collectedPerFactor = economics.repaidPrincipalCents * economics.terms * collectedShare(economics);
  const hurdle = hurdleCents(curve.targetReturn, economics);
  const accept = expectedAcceptCurve(maxInterestRate, 1 - economics.probability, market);
  const terms = economics.terms;
  return (rate) => accept(rate) * (collectedPerFactor * paymentFactor(rate, terms) - hurdle);
}

/** The curve at `rate`, with its parts; for explanations (the search uses valueFunction). */
export function curvePoint(curve: PriceCurve, rate: number): CurvePoint {
  const { economics } = curve;
  const acceptProbability = expectedAcceptProbability(rate, curve.maxInterestRate, 1 - economics.probability, curve.market);
  const profitCents = expectedProfitCents(rate, curve.targetReturn, economics);
  return { rate, acceptProbability, profitCents, valueCents: acceptProbability * profitCents, expectedReturn: expectedAnnualReturn(rate, economics) };
}

/**
 * The rate in [curve.low, curve.cap] with the highest P(accept) × profit. Each step of
 * SEARCH_STEPS searches within one previous step of the best so far (the first searches the
 * whole range, the cap included), so about a hundred rates are tried per request.
 * Assumes low <= cap.
 */
export function optimalRate(curve: PriceCurve): CurvePoint {
  const value = valueFunction(curve);
  const { low, cap } = curve;
  let best = low;
  let bestValue = value(low);
  const consider = (rate: number): void => {
    const candidate = value(rate);
    if (candidate > bestValue) [best, bestValue] = [rate, candidate];
  };
  if (cap > low) consider(cap);
  let previous = cap - low;
  for (const step of SEARCH_STEPS) {
    const center = best;
    const from = Math.max(low, center - previous);
    const to = Math.min(cap, center + previous);
    for (let index = 1; ; index += 1) {
      const rate = round4(from + index * step);
      if (rate >= to) break;
      if (rate !== center) consider(rate);
    }
    previous = step;
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
