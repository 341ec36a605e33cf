// Calibration: a strategy's repayment probability against what happened (every backtest report,
// docs/backtesting.md) and fitting the `score.calibration` block that corrects it (lendbot train
// calibration, docs/training.md).
export {
  strategyCalibration,
  calibrationOfProbabilities,
  calibrationOfPass,
  predictionsOf,
  RESOLVED_RULE,
  type StrategyCalibration,
} from './strategy-calibration.js';
export { strategyProbabilities, StrategyProbabilityPass, type ScoredRequest } from './strategy-probabilities.js';
export { calibrationStats, calibrated, type CalibrationGroup, type CalibrationStats, type Prediction } from './calibration-stats.js';
export { fitCalibration, calibrator, CalibrationFitError, MIN_BLOCK, type CalibrationMethod } from './fit-calibration.js';
export { decileRows, findingLines, calibrationWarnings, DECILE_HEADER } from './calibration-rows.js';
export { withCalibration } from './write-calibration.js';
export { learnedLevelCheck } from './learned-level-check.js';
