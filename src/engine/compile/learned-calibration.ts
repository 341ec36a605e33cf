/**
 * A score's `calibration: { method: learned }` at evaluation time: the posterior of its
 * strategy's calibration learner when the decide step has learners active (active-learning.ts),
 * else the prior (tuning, `strategy explain` without a daemon), and what pricing and the
 * decision's record read of it: the predicted default's log-odds with their uncertainty, and
 * which calibration it was (version and evidence).
 */
import type { CalibrationUsed, Contribution } from '../decision.js';
import type { CalibrationDefinition } from '../definition/strategy-schema.js';
import { activeLearning } from '../market/active-learning.js';
import type { CalibrationLearner, CalibrationSettings } from '../market/calibration-learner.js';
import { calibrationPosterior, learnedLineOf, predictedLevel } from '../market/calibration-learners.js';
import type { Posterior } from '../market/logistic-correction.js';
import { calibrationSettingsOf } from './compile-calibration.js';

/** What pricing reads of the learned level for one request. */
export interface LevelEvidence {
  used: CalibrationUsed;
  /** The predicted default's log-odds: posterior mean and sd at this request's score. */
  mean: number;
  sd: number;
}

export interface LearnedCalibration {
  settings: CalibrationSettings;
  /** The posterior the score prices with now. */
  posterior(): Posterior;
  /** The level pricing reads, from the decision's contribution lines (undefined without the learned line). */
  levelOf(contributions: readonly Contribution[]): LevelEvidence | undefined;
}

/** The learned part of a score's calibration, or undefined for a fitted one; `strategy` names its learner. */
export function learnedCalibrationOf(
  calibration: CalibrationDefinition | undefined,
  strategy: string | undefined,
): LearnedCalibration | undefined {
  if (calibration?.method !== 'learned') return undefined;
  const settings = calibrationSettingsOf(calibration);
  const learner = (): CalibrationLearner | undefined =>
    strategy === undefined ? undefined : activeLearning()?.calibration.learnerFor(strategy, settings);
  return {
    settings,
    posterior: () => calibrationPosterior(learner(), settings),
    levelOf: (contributions) => {
      const line = learnedLineOf(contributions);
      if (line === undefined || typeof line.value !== 'number') return undefined;
      const scoreDefault = 1 - line.value;
      const active = learner();
      const { mean, sd } = predictedLevel(calibrationPosterior(active, settings), scoreDefault);
      const evidence = active?.evidence ?? { loans: 0, defaults: 0, loanMonths: 0 };
      return { used: { version: active?.version ?? 0, ...evidence, scoreDefault }, mean, sd };
    },
  };
}
