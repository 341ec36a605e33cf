/**
 * How a sandbox borrower chooses (docs/market-model.md, "The sandbox's borrowers"): every borrower
 * has one reservation rate, the highest rate it would accept from any lender, fixed when the
 * request is created, and takes the cheapest offer at or below it. The market shape's rule
 * (shapes/) says where that rate sits; the rules differ in structure, not only in numbers:
 *
 * - `take-up-curve`: a hidden uniform draw against a logistic curve of the rate's position (the
 *   rule the engine's take-up model assumes); quality plays no part.
 * - `shops-by-quality`: a borrower with a low true default probability knows its worth and
 *   accepts little above a fair price for its risk; a poor one accepts nearly anything up to the
 *   request's maximum. A lender who prices without knowing that wins the poor ones.
 * - `needs-the-money`: nearly every borrower accepts a rate near the maximum, whatever its quality.
 *
 * The rate is kept to four decimals, rounded down (offers' rates have four), so an export can
 * write it and a backtest decide acceptance exactly as the market did; below the lowest allowed
 * rate (nothing acceptable) it is 0.
 */
import { logit, MIN_OFFER_RATE } from '../math/index.js';
import { clamp } from './random.js';

/** Today's rule: take-up is 1 / (1 + e^(steepness × (position − midpoint))) of the rate's position. */
export interface TakeUpCurveRule {
  kind: 'take-up-curve';
  /** Position (0: the lowest allowed rate, 1: the request's maximum) where half of borrowers walk away. */
  midpoint: number;
  /** How sharply take-up falls around the midpoint. */
  steepness: number;
}

/** Acceptance tied to the borrower's true risk: the adverse-selection world. */
export interface ShopsByQualityRule {
  kind: 'shops-by-quality';
  /** A fair price for a true default probability d: fairBase + fairPerDefault × d. */
  fairBase: number;
  fairPerDefault: number;
  /** How far above the fair price a good borrower still accepts: margin × (0.5 to 1.5, the draw). */
  margin: number;
  /** At or below this true default probability a borrower shops fully (fair price plus margin). */
  shopsBelow: number;
  /** From this true default probability on a borrower accepts anything up to the maximum; between, in proportion. */
  desperateFrom: number;
}

/** Rate-insensitive-ish borrowers: the reservation's position is 1 − reach × draw², quality aside. */
export interface NeedsTheMoneyRule {
  kind: 'needs-the-money';
  /** How far below the maximum (in position) the choosiest borrower's reservation sits. */
  reach: number;
}

export type BorrowerRule = TakeUpCurveRule | ShopsByQualityRule | NeedsTheMoneyRule;

/** What a rule needs to know about one borrower. */
export interface BorrowerFacts {
  maxInterestRate: number;
  /** The hidden chance of repaying in full (the true risk, noise included). */
  repayProbability: number;
}

/**
 * The borrower's reservation rate under `rule`, from its draw (uniform in [0, 1), drawn once per
 * request from its own stream). Never above the request's maximum; 0 when no allowed rate is
 * acceptable.
 */
export function reservationRate(rule: BorrowerRule, facts: BorrowerFacts, draw: number): number {
  const max = facts.maxInterestRate;
  const span = max - MIN_OFFER_RATE;
  let rate: number;
  switch (rule.kind) {
    case 'take-up-curve': {
      // The rate where the curve equals the draw: the draw takes every cheaper rate (take-up
      // falls with the rate), so the rule is the same as comparing the draw with the curve.
      if (draw <= 0) return max;
      const position = rule.steepness > 0 ? rule.midpoint - logit(draw, 0) / rule.steepness : draw < 0.5 ? Infinity : -Infinity;
      rate = MIN_OFFER_RATE + position * span;
      break;
    }
    case 'shops-by-quality': {
      const risk = 1 - facts.repayProbability;
      const fair = rule.fairBase + rule.fairPerDefault * risk;
      const despair = clamp((risk - rule.shopsBelow) / (rule.desperateFrom - rule.shopsBelow), 0, 1);
      rate = fair + rule.margin * (0.5 + draw) + despair * Math.max(0, max - fair);
      break;
    }
    case 'needs-the-money':
      rate = MIN_OFFER_RATE + (1 - rule.reach * draw * draw) * span;
      break;
  }
  return fourDecimalsAtMost(rate, max);
}

/**
 * A reservation rate fixed by the control API: a take-up of 1 takes any offer (the maximum),
 * 0 none; the rate itself when given.
 */
export function fixedReservationRate(facts: BorrowerFacts, fixed: { reservationRate?: number; takeUp?: number }): number | undefined {
  if (fixed.reservationRate !== undefined) return fourDecimalsAtMost(fixed.reservationRate, facts.maxInterestRate);
  if (fixed.takeUp === undefined) return undefined;
  if (fixed.takeUp >= 1) return facts.maxInterestRate;
  if (fixed.takeUp <= 0) return 0;
  return undefined;
}

// Rounded down to four decimals (an offer at four decimals is acceptable exactly when it is at or
// below the unrounded rate), capped at the maximum, 0 below the lowest allowed rate. The small
// addition keeps a rate already at four decimals (0.36 is 3599.9999… ten-thousandths) unchanged.
function fourDecimalsAtMost(rate: number, max: number): number {
  if (Number.isNaN(rate)) return 0;
  const floored = rate === Infinity ? max : Math.floor(rate * 10_000 + 1e-7) / 10_000;
  const capped = Math.min(max, floored);
  return capped < MIN_OFFER_RATE ? 0 : capped;
}
