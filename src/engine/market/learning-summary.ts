/**
 * What `lendbot status` and the dashboard show of a learner: how much it rests on, what
 * exploring cost, and its acceptance against the prior's at a few rate positions for a typical
 * borrower (a request at TYPICAL_BORROWER's maximum rate and default probability).
 */
import { MIN_OFFER_RATE } from '../../math/index.js';
import { expectedAcceptCurve } from '../market-response.js';
import { learnedAcceptCurve } from './learned-accept.js';
import type { LearnerState, LearningSettings, MarketLearner } from './market-learner.js';

/** The borrower the curves are drawn for: a request with this maximum rate and default probability. */
const TYPICAL_BORROWER = { maxRate: 0.3, defaultProbability: 0.1 } as const;
const POSITIONS = [0.1, 0.25, 0.4, 0.55, 0.7, 0.85, 1];

/** The learner's counts (cents rounded) and the settings it explores with. */
export interface LearningSummary extends Omit<LearnerState, 'posterior'>, Pick<LearningSettings, 'priorSd' | 'exploreShare'> {
  /** Acceptance by rate position for the typical borrower: the prior's and the learned one. */
  curve: Array<{ position: number; rate: number; prior: number; learned: number }>;
}

export function learningSummary(learner: MarketLearner): LearningSummary {
  const state = learner.snapshotState;
  const { maxRate, defaultProbability } = TYPICAL_BORROWER;
  const prior = expectedAcceptCurve(maxRate, defaultProbability, learner.settings.market);
  const learned = learnedAcceptCurve(maxRate, defaultProbability, learner.settings.market, state.posterior);
  const round = (value: number): number => Math.round(value * 10_000) / 10_000;
  return {
    version: state.version,
    evidence: state.evidence,
    accepted: state.accepted,
    explored: state.explored,
    explorationCostCents: Math.round(state.explorationCostCents),
    offeredValueCents: Math.round(state.offeredValueCents),
    priorSd: learner.settings.priorSd,
    exploreShare: learner.settings.exploreShare,
    curve: POSITIONS.map((position) => {
      const rate = MIN_OFFER_RATE + position * (maxRate - MIN_OFFER_RATE);
      return { position, rate: round(rate), prior: round(prior(rate)), learned: round(learned(rate)) };
    }),
  };
}
