/**
 * Expected-profit pricing under a learned market response (`pricing.learning`; docs/
 * market-model.md, "Learning while live"). The greedy rate maximises the posterior predictive
 * P(accept) × profit. Exploring on purpose, bounded: a Thompson draw of the correction picks
 * the rate it would maximise, and the offer carries it only when the expected profit given up
 * (under the posterior, against the greedy rate) keeps the learner's total exploration cost
 * within `explore_share` of the expected profit offered so far. The draw is seeded by the
 * request and the model version, so a replay that saw the same fates prices the same way.
 */
import { pointPosterior } from '../market/learned-accept.js';
import type { MarketLearner } from '../market/market-learner.js';
import { curvePoint, optimalRate, type CurvePoint, type PriceCurve } from './expected-profit.js';

export interface LearnedPrice {
  /** The offered point, valued under the posterior predictive (even when a draw chose it). */
  chosen: CurvePoint;
  /** The curve priced on, carrying the learned snapshot (and the exploration, when it explored). */
  curve: PriceCurve;
}

/** The price of `curve`'s request under `learner`; `requestKey` seeds the exploring draw. */
export function learnedPrice(curve: PriceCurve, learner: MarketLearner, requestKey: string): LearnedPrice {
  const snapshot = learner.snapshot();
  const learned: PriceCurve = { ...curve, learning: { ...snapshot } };
  const greedy = optimalRate(learned);
  const learning = { ...snapshot, greedyValueCents: greedy.valueCents };
  const greedyPrice = { chosen: greedy, curve: { ...learned, learning } };
  if (!(greedy.valueCents > 0) || !(learner.settings.exploreShare > 0)) return greedyPrice;
  const drawn = optimalRate({ ...curve, learning: { ...snapshot, posterior: pointPosterior(learner.draw(requestKey)) } });
  if (drawn.rate === greedy.rate) return greedyPrice;
  const explored = curvePoint(learned, drawn.rate);
  const lossCents = greedy.valueCents - explored.valueCents;
  if (!(explored.valueCents > 0) || !learner.mayExplore(lossCents, greedy.valueCents)) return greedyPrice;
  return { chosen: explored, curve: { ...learned, learning: { ...learning, exploration: { greedyRate: greedy.rate, lossCents } } } };
}

/**
 * The learned curve of an offer whose rate a later rule moved (the level-uncertainty floor or
 * blend, level-uncertainty.ts): `offeredRate` is what the offer carries, `greedyOfferedRate` what
 * the same rule makes of the greedy price. An exploring draw that the rule moved onto the greedy
 * price's own rate explored nothing (a floor above both), so it no longer says it explored nor
 * counts against the budget; otherwise its loss and the greedy value are those of the rates the
 * rule leaves, so the budget counts what the offer really gave up.
 */
export function movedByLaterRule(curve: PriceCurve, offeredRate: number, greedyOfferedRate: number): PriceCurve {
  const learning = curve.learning;
  if (learning === undefined) return curve;
  const greedyValueCents = curvePoint(curve, greedyOfferedRate).valueCents;
  const { exploration: _was, ...rest } = learning;
  if (learning.exploration === undefined || greedyOfferedRate === offeredRate) return { ...curve, learning: { ...rest, greedyValueCents } };
  const lossCents = greedyValueCents - curvePoint(curve, offeredRate).valueCents;
  return { ...curve, learning: { ...rest, greedyValueCents, exploration: { greedyRate: greedyOfferedRate, lossCents } } };
}
