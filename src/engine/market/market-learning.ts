/**
 * The learners of every strategy that learns (`pricing.learning`), by strategy name: one for a
 * daemon (restored from the store at start), one per backtest run (starting from the prior).
 * The decide step makes it the active one while strategies evaluate (active-learning.ts), counts
 * each offer against its learner's exploration budget, and the daemon or backtest feeds fates
 * (offers' to the take-up learners, funded loans' to the curse and calibration learners).
 */
import type { Decision } from '../decision.js';
import type { MarketResponse } from '../market-response.js';
import { learnedAcceptCurve, observationAt } from './learned-accept.js';
import type { LearningObservation } from './logistic-correction.js';
import { MarketLearner, type LearnerState, type LearningSettings } from './market-learner.js';
import { CurseLearners } from './curse-learners.js';
import { CalibrationLearners, type StoredCalibration } from './calibration-learners.js';

/** What a decision priced by a learner needs to be learned from later. */
export interface LearnedOffer {
  strategy: string;
  version: number;
  evidence: number;
  observation: LearningObservation;
  /** The learner's chance of acceptance at the offered rate when it priced it (posterior predictive). */
  predicted: number;
}

/** A learner as stored: its state and the settings it was last priced with. */
export interface StoredLearnerState {
  state: LearnerState;
  settings: LearningSettings;
}

export class MarketLearning {
  private readonly learners = new Map<string, MarketLearner>();
  /** The winner's-curse corrections (`pricing.winners_curse`), learned from funded loans' fates. */
  readonly curse = new CurseLearners();
  /** The learned default levels (`score.calibration: { method: learned }`), learned from funded loans' payments. */
  readonly calibration: CalibrationLearners;

  /** `restored`, `calibrations`: learners stored earlier (a daemon's restart resumes them). */
  constructor(
    restored: Iterable<readonly [string, StoredLearnerState]> = [],
    calibrations: Iterable<readonly [string, StoredCalibration]> = [],
  ) {
    for (const [name, { state, settings }] of restored) this.learners.set(name, new MarketLearner(settings, state));
    this.calibration = new CalibrationLearners(calibrations);
  }

  /**
   * The strategy's learner, made from its prior on first use. The correction was learned over
   * one configured market response: when the strategy now prices over another (a reloaded file,
   * a new trained model), the learner starts again from its prior.
   */
  learnerFor(strategy: string, settings: LearningSettings): MarketLearner {
    let learner = this.learners.get(strategy);
    if (learner === undefined || !sameMarket(learner.settings.market, settings.market)) {
      learner = new MarketLearner(settings);
      this.learners.set(strategy, learner);
    }
    learner.settings = settings;
    return learner;
  }

  /** The strategy's learner, if it has priced anything yet. */
  existing(strategy: string): MarketLearner | undefined {
    return this.learners.get(strategy);
  }

  /** Learners in use, by strategy name. */
  entries(): Array<[string, MarketLearner]> {
    return [...this.learners.entries()];
  }

  /** Counts an offer against its learner's exploration budget (decisions priced without learning are ignored). */
  offered(decision: Decision): void {
    const learned = decision.priceCurve?.learning;
    if (decision.action !== 'offer' || learned === undefined) return;
    this.learners.get(decision.strategy.name)?.offered(learned.greedyValueCents ?? 0, learned.exploration?.lossCents);
  }

  /** Learns a fate; false when the strategy has no learner here. */
  observe(strategy: string, observation: LearningObservation, accepted: boolean): boolean {
    const learner = this.learners.get(strategy);
    if (learner === undefined) return false;
    learner.observe(observation, accepted);
    return true;
  }
}

/** Whether two market responses are the same numbers. */
function sameMarket(a: MarketResponse, b: MarketResponse): boolean {
  if (a === b) return true;
  const x = a.competition;
  const y = b.competition;
  return (
    a.takeUp.midpoint === b.takeUp.midpoint &&
    a.takeUp.steepness === b.takeUp.steepness &&
    x.share === y.share &&
    x.intercept === y.intercept &&
    x.perDefault === y.perDefault &&
    x.spread === y.spread &&
    x.width === y.width
  );
}

/** What an offer decision priced by a learner will teach it; undefined for any other decision. */
export function learnedOfferOf(decision: Decision): LearnedOffer | undefined {
  const curve = decision.priceCurve;
  const learned = curve?.learning;
  if (decision.action !== 'offer' || decision.rate === undefined || curve === undefined || learned === undefined) return undefined;
  const defaultProbability = 1 - curve.economics.probability;
  return {
    strategy: decision.strategy.name,
    version: learned.version,
    evidence: learned.evidence,
    observation: observationAt(decision.rate, curve.maxInterestRate, defaultProbability, curve.market),
    predicted: learnedAcceptCurve(curve.maxInterestRate, defaultProbability, curve.market, learned.posterior)(decision.rate),
  };
}
