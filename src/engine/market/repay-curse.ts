/**
 * The winner's curse (docs/market-model.md, "The winner's curse"): the chance a borrower repays
 * once WE have won them at rate r, which need not be the score's P(repay | x). Where other
 * lenders read risk the features miss and undercut the good borrowers, and good borrowers walk
 * away from a high rate, the loans we win are the worse ones, and the more so the higher we
 * price. A small correction to the score's log-odds ℓ = logit P(repay | x):
 *
 *   logit P(repay | won at r, x) = ℓ + w · [1, u, u·ℓ]
 *
 * u is the rate's position between 0.03 (0) and the request's maximum (1), as for take-up.
 * Three terms, no more: the intercept says the loans we win repay less than scored at all; u
 * says it worsens with the rate (only the worst accept high rates); u·ℓ lets it worsen more for
 * borrowers scored good (the ones competitors take first), without which a slope learned on
 * poor borrowers would be charged to good ones too. With a few dozen funded loans of known
 * fate a year per strategy, more terms would only add noise.
 *
 * w is learned as the take-up correction is (logistic-correction.ts, the same Laplace update):
 * prior N(0, σ²I), one update per funded loan whose fate is known. Pricing uses the posterior
 * MEAN, not the predictive average: the prior's width says how far w may move with evidence,
 * and averaging over it would pull every score towards one half before a single loan is seen.
 */
import { logistic, logit } from '../../math/index.js';
import { positionOf, priorPosterior, updatedAt, type Posterior } from './logistic-correction.js';

/** Terms of the curse's x, in order. */
export const CURSE_TERMS = ['intercept', 'position', 'position_x_logit'] as const;
export const CURSE_SIZE = CURSE_TERMS.length;

/** What a funded loan contributes once its fate is known. */
export interface CurseObservation {
  /** The offered rate's position between 0.03 and the request's maximum. */
  position: number;
  /** The score's log-odds of repayment when it was priced. */
  scoreLogit: number;
}

/** x for a rate position and the score's log-odds. */
function curseTerms(position: number, scoreLogit: number): number[] {
  return [1, position, position * scoreLogit];
}

/** The observation a loan won at `rate` makes (`probability`: the score's repayment probability). */
export function curseObservationAt(rate: number, maxRate: number, probability: number): CurseObservation {
  return { position: positionOf(rate, maxRate), scoreLogit: logit(probability) };
}

/**
 * P(repay | won at `rate`) for a request scored `probability`, under the curse's mean `w`.
 * Exactly `probability` when the correction is 0 (the term off changes no price to the bit).
 */
export function wonRepayProbability(probability: number, rate: number, maxRate: number, w: readonly number[]): number {
  const scoreLogit = logit(probability);
  const x = curseTerms(positionOf(rate, maxRate), scoreLogit);
  let shift = 0;
  for (let i = 0; i < x.length; i += 1) shift += (w[i] ?? 0) * (x[i] ?? 0);
  return shift === 0 ? probability : logistic(scoreLogit + shift);
}

/** A strategy's `pricing.winners_curse`, compiled. */
export interface CurseSettings {
  priorSd: number;
  /** Where the prior is centred: 0, or w fitted by `lendbot train` (the market file's). */
  priorMean: readonly number[];
}

/** The curse's posterior and the funded loans it rests on. */
export interface CurseState {
  posterior: Posterior;
  evidence: number;
  /** Of those, repaid. */
  repaid: number;
}

export function initialCurseState(settings: CurseSettings): CurseState {
  const prior = priorPosterior(settings.priorSd, CURSE_SIZE);
  return { posterior: { mean: CURSE_TERMS.map((_, i) => settings.priorMean[i] ?? 0), cov: prior.cov }, evidence: 0, repaid: 0 };
}

/** Learns one funded loan's fate (repaid in full or not); returns the new state. */
export function curseUpdated(state: CurseState, observation: CurseObservation, repaid: boolean): CurseState {
  const { position, scoreLogit } = observation;
  if (!Number.isFinite(position) || !Number.isFinite(scoreLogit)) return state;
  return {
    posterior: updatedAt(state.posterior, curseTerms(position, scoreLogit), scoreLogit, repaid),
    evidence: state.evidence + 1,
    repaid: state.repaid + (repaid ? 1 : 0),
  };
}

/** Fits w from loans of known fate, in order (the batch form, for `lendbot train`). */
export function fitCurse(settings: CurseSettings, loans: Iterable<{ observation: CurseObservation; repaid: boolean }>): CurseState {
  let state = initialCurseState(settings);
  for (const { observation, repaid } of loans) state = curseUpdated(state, observation, repaid);
  return state;
}
