// Retraining while live (docs/training.md, "Retraining while live"): the loop, its rounds, the
// managed strategy versions it lays over the files, and rollback.
export { attachRetrain, type Retraining, type RetrainParts } from './attach-retrain.js';
export { MIN_RESOLVED_FLOOR, retrainSectionSchema, retrainSettings, type RetrainSection, type RetrainSettings } from './retrain-config.js';
export { planRound, recordRound, storeRecording, type RoundPlan, type RunningStrategy, type RoundDeps } from './retrain-round.js';
export { fitCandidate, resolvedLoans, type CandidateOutcome, type FitFigures, type HeldOutFigures } from './fit-candidate.js';
export { judgeShadow, type ShadowFigures } from './shadow-judgement.js';
export { ManagedStrategies, asShadowText } from './managed-strategies.js';
export { RetrainLoop } from './retrain-loop.js';
export { rollback, RollbackRefusal, type RollbackResult } from './rollback.js';
