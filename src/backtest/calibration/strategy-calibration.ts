/**
 * The calibration section of a backtest report, for one strategy: its probability against what
 * happened on every resolved request of the recording it scored (strategy-probabilities.ts), by
 * decile, as a Brier score against a constant guess, and around its min_probability cut
 * (calibration-stats.ts). Computed from the recording alone, so it is the same in every market
 * draw and world.
 */
import type { CompiledStrategy } from '../../engine/index.js';
import type { PreparedRecording } from '../prepared-recording.js';
import { calibrationStats, type CalibrationStats, type Prediction } from './calibration-stats.js';
import {
  strategyProbabilities,
  type ScoredRequest,
  type StrategyProbabilities,
  type StrategyProbabilityPass,
} from './strategy-probabilities.js';

/** What counts, said once for every report (docs/backtesting.md, "Calibration"). */
export const RESOLVED_RULE =
  'resolved: completed (repaid), default or collection (defaulted), or unfunded with if_funded (counted by it); current and other unfunded requests are left out';

export interface StrategyCalibration extends CalibrationStats {
  strategy: string;
  /** Requests in the recording, resolved ones, and resolved ones the strategy scored. */
  requests: number;
  resolved: number;
  scored: number;
  /** The cut the bands sit around (0: none). */
  minProbability: number;
}

export function predictionsOf(
  scored: readonly ScoredRequest[],
  probability: (item: ScoredRequest) => number = (item) => item.probability,
): Prediction[] {
  return scored.map((item) => ({ predicted: 1 - probability(item), defaulted: item.defaulted }));
}

export function strategyCalibration(recording: PreparedRecording, strategy: CompiledStrategy): StrategyCalibration {
  return calibrationOfProbabilities(strategyProbabilities(recording, strategy));
}

/** The calibration section of probabilities already found (strategyProbabilities). */
export function calibrationOfProbabilities(found: StrategyProbabilities): StrategyCalibration {
  return calibrationOf({ ...found, scored: found.scored.length }, predictionsOf(found.scored));
}

/**
 * The calibration section of a StrategyProbabilityPass a replay fed, `requests` long: the same as
 * calibrationOfProbabilities(pass.result(requests)), without building a ScoredRequest for each
 * scored request (700,000 on the 1,000,000-request recording; issue 39's memory goal).
 */
export function calibrationOfPass(pass: StrategyProbabilityPass, requests: number): StrategyCalibration {
  return calibrationOf(pass.counts(requests), pass.predictions());
}

function calibrationOf(found: ReturnType<StrategyProbabilityPass['counts']>, predictions: Prediction[]): StrategyCalibration {
  const stats = calibrationStats(predictions, found.minProbability);
  return {
    strategy: found.strategy,
    requests: found.requests,
    resolved: found.resolved,
    scored: found.scored,
    minProbability: found.minProbability,
    ...stats,
  };
}
