// Training a default model from a recording (`lendbot train`, docs/training.md): the data, the
// fit, its metrics and the market response fitted beside it.
export { labelOf } from '../realised-fate.js';
export { trainingData, enrichmentOf, type TrainingData } from './training-data.js';
export { trainModel, featureList, TrainingDataError, MIN_LABELLED, type TrainReport, type SplitFacts } from './train-model.js';
export { fitLogistic, predictRows, gradient } from './logistic-fit.js';
export { auc, brier } from './prediction-quality.js';
export { MIN_TAKE_UP_LINES, THIN_LINES, type PartEvidence } from './market-fit.js';
export { fitTakeUpCurve, LR_CRITICAL, type TakeUpObservation } from './take-up-fit.js';
export { marketFileOf } from './market-file-out.js';
export { planDesign, encodeRow } from './design.js';
export { calibrateStrategy, type CalibrateReport } from './calibrate-strategy.js';
export { checkAcrossWorlds, CHECK_SEED, MATERIAL_LOSS, type WorldsCheck } from './held-out-check.js';
