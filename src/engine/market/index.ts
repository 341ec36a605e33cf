// The learned market response's public face (docs/market-model.md, "Learning while live").
export type { LearnerState } from './market-learner.js';
export { MarketLearning, learnedOfferOf, type LearnedOffer, type StoredLearnerState } from './market-learning.js';
export { learningSummary, type LearningSummary } from './learning-summary.js';
export { withLearning } from './active-learning.js';
export { learnedAcceptCurve, observationAt } from './learned-accept.js';
export type { LearningObservation } from './logistic-correction.js';
export { copyLearning, marketUsedText, calibrationUsedText } from './learning-copy.js';
export { CalibrationLearner, type CalibrationState } from './calibration-learner.js';
export { CalibrationLearners, calibrationOfferOf, type StoredCalibration } from './calibration-learners.js';
export { curseOfferOf, type CurseOffer } from './curse-learners.js';
