// Retraining while live (docs/training.md, "Retraining while live"): the loop, its rounds, the
// managed strategy versions it lays over the files, and rollback.
export { MIN_RESOLVED_FLOOR, retrainSectionSchema, retrainSettings } from './retrain-config.js';
export { planRound, recordRound, type RoundPlan, type RunningStrategy, type RoundDeps } from './retrain-round.js';
export type { FitFigures, HeldOutFigures } from './fit-candidate.js';
export { ManagedStrategies } from './managed-strategies.js';
export { rollback, RollbackRefusal } from './rollback.js';
