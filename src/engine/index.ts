// The strategy engine's public face: features, strategy loading, evaluation, loan arithmetic.
export type { Enrichment } from './enrichment.js';
export { formatRatio, type Contribution, type Decision, type ModelledOutcome } from './decision.js';
export type { CompiledStrategy } from './compiled-strategy.js';
export { evaluate, evaluateAll } from './evaluate.js';
export { compileStrategy } from './compile/compile-strategy.js';
export { compileStrategyText, loadStrategyFile, parseStrategyText } from './load/load-strategy-file.js';
export { loadStrategyFiles } from './load/load-strategy-files.js';
export type { ParamSpec, FilterDefinition, PricingDefinition } from './definition/strategy-schema.js';
export { FEATURES, FEATURE_NAMES, featureByName } from './features/feature-catalogue.js';
export type { FeatureValue } from './features/feature-definition.js';
export { parseCreditScoreRange } from './features/credit-score-range.js';
export {
  decideSync,
  decideAsync,
  type DataSource,
  type Fetched,
  type SpendLedger,
  type PurchaseEntry,
  type DecideContext,
  type DecideOutcome,
  type GuardQuestion,
} from './decide-step.js';
export {
  DEFAULT_MARKET_RESPONSE,
  marketResponse,
  ratePosition,
  takeUpProbability,
  takeUpAt,
  beatsHard,
  acceptProbability,
  expectedAcceptProbability,
  type MarketResponse,
  type PartialMarketResponse,
  type TakeUpCurve,
  type RecordedCompetition,
  type CompetitionComparison,
} from './market-response.js';
export { eventDropReason } from './compile/event-prefilter.js';
export { strategyRoles, type StrategyLayer } from './strategy-roles.js';
