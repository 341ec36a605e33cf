/**
 * The calibration learners (calibration-learner.ts) of every strategy with
 * `score.calibration: { method: learned }`, by strategy name, held by the run's MarketLearning:
 * the score reads each one's posterior while the decide step evaluates, and the backtest or the
 * daemon feeds each funded loan's instalments and default as the replay or the store reaches them.
 */
import type { Contribution, Decision } from '../decision.js';
import { CalibrationLearner, levelAt, priorCalibration, type CalibrationSettings, type CalibrationState } from './calibration-learner.js';
import type { Posterior } from './logistic-correction.js';
import { logit } from '../../math/index.js';

/** The feature name of the learned calibration's contribution line (its value: the repayment probability before it). */
export const LEARNED_LINE = 'calibration.learned';

/** A learner as stored: its state and the settings it was last fitted with. */
export interface StoredCalibration {
  state: CalibrationState;
  settings: CalibrationSettings;
}

export class CalibrationLearners {
  private readonly learners = new Map<string, CalibrationLearner>();

  constructor(restored: Iterable<readonly [string, StoredCalibration]> = []) {
    for (const [name, { state, settings }] of restored) this.learners.set(name, new CalibrationLearner(settings, state));
  }

  /** The strategy's learner; a changed prior refits the same evidence under the new one. */
  learnerFor(strategy: string, settings: CalibrationSettings): CalibrationLearner {
    let learner = this.learners.get(strategy);
    if (learner === undefined) {
      learner = new CalibrationLearner(settings);
      this.learners.set(strategy, learner);
    } else if (!sameSettings(learner.settings, settings)) learner.reprice(settings);
    return learner;
  }

  existing(strategy: string): CalibrationLearner | undefined {
    return this.learners.get(strategy);
  }

  entries(): Array<[string, CalibrationLearner]> {
    return [...this.learners.entries()];
  }

  /** A decision whose score read the borrower's history, on a request of risk `level`: one more pair for its learner's anchor relation. */
  historyRead(decision: Decision, level: number): void {
    const used = decision.calibration;
    if (used?.historyLogOdds === undefined) return;
    this.learners.get(decision.strategy.name)?.historyRead(level, logit(used.scoreDefault), used.historyLogOdds);
  }

  /** Refits every learner whose evidence changed (at most once a clock day each); the names refitted. */
  refitDue(nowMs: number): string[] {
    const refitted: string[] = [];
    for (const [name, learner] of this.learners) if (learner.refitIfDue(nowMs)) refitted.push(name);
    return refitted;
  }
}

function sameSettings(a: CalibrationSettings, b: CalibrationSettings): boolean {
  return a.levelSd === b.levelSd && a.slopeSd === b.slopeSd && a.levelMean === b.levelMean;
}

/** The posterior the score prices with: the learner's when one is active, else the prior. */
export function calibrationPosterior(learner: CalibrationLearner | undefined, settings: CalibrationSettings): Posterior {
  return learner === undefined ? priorCalibration(settings) : learner.posterior;
}

/** The learned calibration's line among a decision's contributions, if it has one. */
export function learnedLineOf(contributions: readonly Contribution[]): Contribution | undefined {
  for (let i = contributions.length - 1; i >= 0; i -= 1) {
    const line = contributions[i];
    if (line?.feature === LEARNED_LINE) return line;
  }
  return undefined;
}

/** What a funded loan priced under a learned calibration teaches its learner: the strategy and the score's default before it. */
export function calibrationOfferOf(decision: Decision): { strategy: string; scoreDefault: number } | undefined {
  const used = decision.calibration;
  if (decision.action !== 'offer' || used === undefined) return undefined;
  return { strategy: decision.strategy.name, scoreDefault: used.scoreDefault };
}

/** The predicted default's log-odds mean and sd at the score's default `pdScore`. */
export function predictedLevel(posterior: Posterior, pdScore: number): { mean: number; sd: number } {
  const { mean, variance } = levelAt(posterior, pdScore);
  return { mean, sd: Math.sqrt(variance) };
}
