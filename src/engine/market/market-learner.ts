/**
 * One strategy's learned market response: the posterior over the correction to its configured
 * take-up (logistic-correction.ts), how many fates it rests on, and the exploration budget's
 * running totals. The decide step prices with it, records each offer against its budget, and the
 * daemon or the backtest feeds it each fate once known.
 */
import type { MarketResponse } from '../market-response.js';
import { drawFrom, priorPosterior, updated, type LearningObservation, type Posterior } from './logistic-correction.js';
import { seededNormals } from './seeded-normals.js';

/** A strategy's `pricing.learning`, compiled. */
export interface LearningSettings {
  /** How far the configured take-up may be wrong: the prior standard deviation of each θ term. */
  priorSd: number;
  /** Exploration may cost at most this share of the expected profit offered so far. */
  exploreShare: number;
  /** The configured market response the correction is learned over (for showing the curves). */
  market: MarketResponse;
}

/** Everything a learner knows, as plain data (stored by the daemon, so a restart resumes it). */
export interface LearnerState {
  posterior: Posterior;
  /** Increments on each update: which market response priced a decision. */
  version: number;
  /** Fates seen (the evidence count). */
  evidence: number;
  /** Of those, accepted. */
  accepted: number;
  /** Expected profit given up by exploring, in (unrounded) cents, so far. */
  explorationCostCents: number;
  /** Expected profit of the greedy price of every offer made, in cents, so far. */
  offeredValueCents: number;
  /** Offers priced by a posterior draw instead of the posterior mean. */
  explored: number;
}

/** What pricing takes from a learner: the posterior it prices with, and which one it is. */
export interface LearnedSnapshot {
  version: number;
  evidence: number;
  posterior: Posterior;
}

function initialLearnerState(settings: LearningSettings): LearnerState {
  return {
    posterior: priorPosterior(settings.priorSd),
    version: 0,
    evidence: 0,
    accepted: 0,
    explorationCostCents: 0,
    offeredValueCents: 0,
    explored: 0,
  };
}

export class MarketLearner {
  /** `settings` are the strategy's current ones (learnerFor refreshes them after a reload). */
  constructor(
    public settings: LearningSettings,
    private state: LearnerState = initialLearnerState(settings),
  ) {}

  /** The learner's state, to store or show (a copy). */
  get snapshotState(): LearnerState {
    return structuredClone(this.state);
  }

  get version(): number {
    return this.state.version;
  }

  get evidence(): number {
    return this.state.evidence;
  }

  /** What pricing needs now. The posterior is shared, not copied: it is replaced, never changed, on update. */
  snapshot(): LearnedSnapshot {
    return { version: this.state.version, evidence: this.state.evidence, posterior: this.state.posterior };
  }

  /**
   * A draw of θ for exploring, the same for the same `key` (a request id) and model version,
   * so a replay that has seen the same fates explores the same way.
   */
  draw(key: string): number[] {
    return drawFrom(this.state.posterior, seededNormals(`${key}:${this.state.version}`, this.state.posterior.mean.length));
  }

  /**
   * Whether an offer may explore at an expected-profit loss of `lossCents` against the greedy
   * price worth `greedyValueCents`: each offer may give up at most `exploreShare` of its own
   * greedy value, so the running cost stays within the share of everything offered. The rule
   * reads this offer and the posterior only, not the running totals, so whoever prices the same
   * request with the same posterior (the daemon, its replay, `strategy explain` with a copy of
   * the learners, a learner restored at another point of its budget) explores the same way.
   */
  mayExplore(lossCents: number, greedyValueCents: number): boolean {
    return lossCents <= this.settings.exploreShare * greedyValueCents;
  }

  /** Counts an offer made against the exploration budget: its greedy value, and its loss when it explored. */
  offered(greedyValueCents: number, explorationLossCents: number | undefined): void {
    this.state.offeredValueCents += greedyValueCents;
    if (explorationLossCents === undefined) return;
    this.state.explorationCostCents += Math.max(0, explorationLossCents);
    this.state.explored += 1;
  }

  /** Learns one offer's fate: accepted (1) or rejected, expired, lost (0). */
  observe(observation: LearningObservation, accepted: boolean): void {
    const { position, defaultProbability, priorLogit } = observation;
    if (![position, defaultProbability, priorLogit].every(Number.isFinite)) return;
    this.state.posterior = updated(this.state.posterior, observation, accepted);
    this.state.version += 1;
    this.state.evidence += 1;
    if (accepted) this.state.accepted += 1;
  }
}
