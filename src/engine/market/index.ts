// The learned market response's public face (docs/market-model.md, "Learning while live").
export { MarketLearner, initialLearnerState, type LearnerState, type LearningSettings, type LearnedSnapshot } from './market-learner.js';
export { MarketLearning, learnedOfferOf, type LearnedOffer, type StoredLearnerState } from './market-learning.js';
export { learningSummary, TYPICAL_BORROWER, type LearningSummary } from './learning-summary.js';
export { withLearning, activeLearning } from './active-learning.js';
export { learnedAcceptCurve, observationAt, type LearnedCurve } from './learned-accept.js';
export { type LearningObservation, type Posterior } from './logistic-correction.js';
export { copyLearning, marketUsedText, calibrationUsedText } from './learning-copy.js';
export {
  CalibrationLearner,
  initialCalibrationState,
  type CalibrationSettings,
  type CalibrationState,
  type CalibrationEvidence,
} from './calibration-learner.js';
export { CalibrationLearners, calibrationOfferOf, predictedLevel, LEARNED_LINE, type StoredCalibration } from './calibration-learners.js';
export { CurseLearners, curseOfferOf, type CurseOffer } from './curse-learners.js';
export {
  fitCurse,
  curseObservationAt,
  wonRepayProbability,
  CURSE_TERMS,
  type CurseSettings,
  type CurseState,
  type CurseObservation,
} from './repay-curse.js';
