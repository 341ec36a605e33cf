/**
 * The acceptance pricing uses when a strategy learns: the configured curve (take-up times
 * competition, market-response.ts) corrected by the posterior, averaged over its uncertainty
 * (probit approximation). A posterior without covariance is a single θ (a Thompson draw).
 */
import { expectedAcceptCurve, type MarketResponse } from '../market-response.js';
import { logit } from '../../math/index.js';
import { correctionAt, positionOf, predictive, type LearningObservation, type Posterior } from './logistic-correction.js';
import type { LearnedSnapshot } from './market-learner.js';

/** What a price curve carries of the learned market response (plain data: explanations redraw it). */
export interface LearnedCurve extends LearnedSnapshot {
  /** The offer explored: the rate the posterior mean would have chosen, and the expected profit given up. */
  exploration?: { greedyRate: number; lossCents: number };
  /** The greedy price's expected profit (P(accept) × profit), counted against the exploration budget. */
  greedyValueCents?: number;
}

/** P(accept | rate) for one request under the posterior. */
export function learnedAcceptCurve(
  maxRate: number,
  defaultProbability: number,
  market: MarketResponse,
  posterior: Posterior,
): (rate: number) => number {
  const prior = expectedAcceptCurve(maxRate, defaultProbability, market);
  return (rate) => {
    const position = positionOf(rate, maxRate);
    const { mean, variance } = correctionAt(posterior, position, defaultProbability);
    return predictive(logit(prior(rate)), mean, variance);
  };
}

/** The observation an offer at `rate` makes, for the learner to update on once its fate is known. */
export function observationAt(rate: number, maxRate: number, defaultProbability: number, market: MarketResponse): LearningObservation {
  return {
    position: positionOf(rate, maxRate),
    defaultProbability,
    priorLogit: logit(expectedAcceptCurve(maxRate, defaultProbability, market)(rate)),
  };
}

/** θ alone, as a posterior without uncertainty (pricing under a draw). */
export function pointPosterior(theta: readonly number[]): Posterior {
  return { mean: [...theta], cov: new Array<number>(theta.length * theta.length).fill(0) };
}

/**
 * How much the correction steepens the take-up at this default probability: the u and u·pd
 * terms of θ, in the prior's units (steepness per unit of position), for the search's sampling.
 */
export function extraSteepness(posterior: Posterior, defaultProbability: number): number {
  return Math.abs((posterior.mean[1] ?? 0) + (posterior.mean[3] ?? 0) * defaultProbability);
}
