// Training a default model from a recording (`lendbot train`, docs/training.md): the data, the
// fit, its metrics and the market response fitted beside it.
export { labelOf } from '../realised-fate.js';
export { trainingData, enrichmentOf, type TrainingData, type TrainingLine } from './training-data.js';
export {
  trainModel,
  featureList,
  TrainingDataError,
  MIN_LABELLED,
  MIN_PER_CLASS,
  L2_GRID,
  type TrainReport,
  type TrainOptions,
  type SplitFacts,
} from './train-model.js';
export { fitLogistic, predictRows, gradient, type FitOptions, type FitResult } from './logistic-fit.js';
export { auc, brier } from './prediction-quality.js';
export {
  fitMarket,
  MIN_TAKE_UP_LINES,
  THIN_LINES,
  type MarketFit,
  type MarketEvidence,
  type PartEvidence,
  type MarketFitOptions,
} from './market-fit.js';
export { fitTakeUpCurve, LR_CRITICAL, type TakeUpObservation, type TakeUpCurveFit } from './take-up-fit.js';
export { marketFileOf } from './market-file-out.js';
export { planDesign, encodeRow, modelFeatures, MIN_LEVEL_LINES, type Design } from './design.js';
export {
  calibrateStrategy,
  rawCut,
  type CalibrateReport,
  type CalibrateOptions,
  type CalibrationRecordingFacts,
} from './calibrate-strategy.js';
export { checkAcrossWorlds, CHECK_SEED, MATERIAL_LOSS, type WorldsCheck, type HeldOutPart } from './held-out-check.js';
