/**
 * How the market answers an offer's rate (docs/market-model.md). One model, used three ways:
 * pricing chooses the rate that maximises P(accept | rate) × expected profit (competition not yet
 * known), the backtest judges an offer against what the recording says competitors did, and
 * `lendbot train` fits the parameters from recorded outcomes.
 *
 * - Take-up: a borrower walks away from expensive offers. The chance of taking an offer at all is
 *   logistic in the rate's position u = (rate − 0.03) / (max_interest_rate − 0.03) between the
 *   lowest allowed rate and the request's maximum: 1 / (1 + e^(steepness × (u − midpoint))).
 *   Midpoint and steepness may move with the borrower's default probability pd
 *   (midpoint + midpointPerDefault × pd, steepness + steepnessPerDefault × pd, never below 0), so
 *   a market where better borrowers walk away sooner (they can borrow elsewhere) is one curve per
 *   borrower rather than one for all. Both are 0 unless set: then pd plays no part.
 * - Competition: against a competing rate c, the chance our offer is the one chosen is
 *   1 / (1 + e^((rate − c) / width)): one half at a tie, near certain well below c.
 * - Unknown competition (at decision time): with probability `share` some competitor offers, at
 *   a rate C ~ Normal(intercept + perDefault × default probability, spread); above the request's
 *   maximum nobody offers.
 */
import { logistic, MIN_OFFER_RATE } from '../math/index.js';

export interface TakeUpCurve {
  /** Position (0: the lowest allowed rate, 1: the request's maximum) where half of borrowers walk away. */
  midpoint: number;
  /** How sharply take-up falls around the midpoint (0: rate does not matter). */
  steepness: number;
  /** Midpoint added per unit of default probability (0 or unset: the same midpoint for every borrower). */
  midpointPerDefault?: number;
  /** Steepness added per unit of default probability (0 or unset: the same steepness for every borrower). */
  steepnessPerDefault?: number;
}

export interface CompetitionModel {
  /** Share of requests on which some other lender offers. */
  share: number;
  /** Expected best competing rate at a zero default probability. */
  intercept: number;
  /** Expected best competing rate added per unit of default probability. */
  perDefault: number;
  /** Standard deviation of the best competing rate around that expectation. */
  spread: number;
  /** How soft the comparison with a competing rate is (0: the lower rate always wins, ties to us). */
  width: number;
}

export interface MarketResponse {
  takeUp: TakeUpCurve;
  competition: CompetitionModel;
}

/**
 * Cautious defaults, not fitted to any one market: `lendbot train` fits them from a recording,
 * and a strategy or backtest can set each one.
 */
export const DEFAULT_MARKET_RESPONSE: MarketResponse = {
  takeUp: { midpoint: 0.7, steepness: 6 },
  competition: { share: 0.6, intercept: 0.08, perDefault: 1, spread: 0.08, width: 0.01 },
};

/**
 * Some of a market response's numbers: a strategy's `pricing.market`, or what `lendbot train`
 * fitted into a model file. marketResponse fills in the rest.
 */
export interface PartialMarketResponse {
  takeUp?: Partial<TakeUpCurve>;
  competition?: Partial<CompetitionModel>;
  /** The winner's-curse w a market file carries (`lendbot train`; market/repay-curse.ts): the centre of `pricing.winners_curse`'s prior. */
  curse?: readonly number[];
}

/** Merges a partial setting over the defaults, section by section. */
export function marketResponse(partial: PartialMarketResponse = {}, base: MarketResponse = DEFAULT_MARKET_RESPONSE): MarketResponse {
  return { takeUp: { ...base.takeUp, ...partial.takeUp }, competition: { ...base.competition, ...partial.competition } };
}

/** The rate's position between the lowest allowed rate (0) and the request's maximum (1). */
export function ratePosition(rate: number, maxRate: number): number {
  if (maxRate <= MIN_OFFER_RATE) return 1;
  return (rate - MIN_OFFER_RATE) / (maxRate - MIN_OFFER_RATE);
}

/**
 * The curve's midpoint and steepness for a borrower of default probability `defaultProbability`.
 * Without per-default terms the curve's own numbers, untouched (not even + 0 × pd), so a
 * borrower-blind curve gives the same results to the last bit whatever pd is.
 */
export function takeUpAt(curve: TakeUpCurve, defaultProbability: number): { midpoint: number; steepness: number } {
  const { midpoint, steepness, midpointPerDefault, steepnessPerDefault } = curve;
  return {
    midpoint: midpointPerDefault ? midpoint + midpointPerDefault * defaultProbability : midpoint,
    steepness: steepnessPerDefault ? Math.max(0, steepness + steepnessPerDefault * defaultProbability) : steepness,
  };
}

/**
 * The chance a borrower takes an offer at `rate` at all (no better offer considered);
 * `defaultProbability` matters only to a curve with per-default terms.
 */
export function takeUpProbability(rate: number, maxRate: number, curve: TakeUpCurve, defaultProbability = 0): number {
  const { midpoint, steepness } = takeUpAt(curve, defaultProbability);
  return logistic(-steepness * (ratePosition(rate, maxRate) - midpoint));
}

/** The chance our offer at `rate` is preferred to a competing offer at `competing`. */
function beatProbability(rate: number, competing: number, width: number): number {
  if (width <= 0) return rate <= competing ? 1 : 0;
  return logistic((competing - rate) / width);
}

/**
 * How an offer is compared with a competing rate the recording names. `hard` (a backtest's
 * default): only a strictly lower rate can win, a tie goes to the competitor (the cautious
 * side), so no offer ever wins above a rate the borrower took. `soft`: `beatProbability` with the
 * competition model's `width`, a chance for a dearer offer too (an explicit, optional assumption:
 * a borrower who weighs more than the price).
 */
export type CompetitionComparison = 'hard' | 'soft';

/** Whether a hard comparison lets an offer at `rate` beat a competing offer at `competing`: strictly cheaper only. */
export function beatsHard(rate: number, competing: number): boolean {
  return rate < competing;
}

/** What a recording says about the competition for one request. */
export type RecordedCompetition =
  /** Nobody else offered. */
  | { kind: 'none' }
  /** The borrower took a competing offer at `rate` (so would have taken any offer as cheap). */
  | { kind: 'taken'; rate: number }
  /** A competitor offered `rate` and the borrower walked away from it. */
  | { kind: 'refused'; rate: number };

/**
 * The chance the borrower would have accepted our offer at `rate`, given what the recording says
 * happened. Take-up is one hidden draw per borrower: one who took an offer at c takes any offer
 * with at least c's take-up, and one who refused c takes ours only with the take-up c lacked.
 * Against a competing rate, `comparison` says whether only a strictly cheaper offer wins (hard)
 * or a dearer one may too (soft, by the competition model's width). `defaultProbability` is the
 * borrower's, for a take-up curve that depends on it.
 */
export function acceptProbability(
  rate: number,
  maxRate: number,
  recorded: RecordedCompetition,
  response: MarketResponse,
  comparison: CompetitionComparison,
  defaultProbability = 0,
): number {
  const takeUp = (r: number): number => takeUpProbability(r, maxRate, response.takeUp, defaultProbability);
  if (recorded.kind === 'none') return takeUp(rate);
  const beat =
    comparison === 'hard' ? (beatsHard(rate, recorded.rate) ? 1 : 0) : beatProbability(rate, recorded.rate, response.competition.width);
  if (beat === 0) return 0;
  const theirs = takeUp(recorded.rate);
  if (recorded.kind === 'taken') return beat * (theirs <= 0 ? 0 : Math.min(1, takeUp(rate) / theirs));
  return beat * (theirs >= 1 ? 0 : Math.max(0, (takeUp(rate) - theirs) / (1 - theirs)));
}

/** Standard normal cumulative distribution (Abramowitz and Stegun 7.1.26, error below 1.5e-7). */
function normalCdf(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erf = 1 - poly * Math.exp(-x * x);
  return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

/**
 * The chance an offer at `rate` is accepted before anyone knows who else will offer: take-up,
 * times the chance that no competitor offers below us. The soft comparison (`width`) widens the
 * competing rate's spread by the logistic's own standard deviation (π·width/√3).
 */
export function expectedAcceptProbability(rate: number, maxRate: number, defaultProbability: number, response: MarketResponse): number {
  return expectedAcceptCurve(maxRate, defaultProbability, response)(rate);
}

/**
 * The standard deviation of the competing rate as our offer meets it: the competing rate's
 * spread, widened by the soft comparison's own (a logistic of scale `width` has standard
 * deviation π·width/√3).
 */
export function competingRateSd(competition: CompetitionModel): number {
  const { spread, width } = competition;
  return Math.sqrt(spread * spread + ((Math.PI * width) / Math.sqrt(3)) ** 2);
}

/**
 * expectedAcceptProbability for one request as a function of the rate, with what does not depend
 * on the rate worked out once (pricing tries dozens of rates per request). Same arithmetic, in
 * the same order, as takeUpProbability and normalCdf: the same results to the last bit.
 */
export function expectedAcceptCurve(maxRate: number, defaultProbability: number, response: MarketResponse): (rate: number) => number {
  const { share, intercept, perDefault } = response.competition;
  const { midpoint, steepness } = takeUpAt(response.takeUp, defaultProbability);
  const mean = intercept + perDefault * defaultProbability;
  const sd = competingRateSd(response.competition);
  const alone = 1 - share;
  const positionRange = maxRate - MIN_OFFER_RATE;
  const positionKnown = maxRate > MIN_OFFER_RATE;
  return (rate) => {
    const beaten = sd <= 0 ? (rate <= mean ? 1 : 0) : normalCdf((mean - rate) / sd);
    const position = positionKnown ? (rate - MIN_OFFER_RATE) / positionRange : 1;
    return logistic(-steepness * (position - midpoint)) * (alone + share * beaten);
  };
}
