// The strategy engine's public face: features, strategy loading, evaluation, loan arithmetic.
export type { Enrichment, DataNeed } from './enrichment.js';
export { formatRatio, type Contribution, type Decision, type ModelledOutcome, type StrategyIdentity } from './decision.js';
export type { CompiledStrategy, DataPolicy, ProviderPolicy } from './compiled-strategy.js';
export { evaluate, evaluateAll, byPriority } from './evaluate.js';
export { compileStrategy, contentHashOf } from './compile/compile-strategy.js';
export { compileStrategyText, loadStrategyFile, parseStrategyText } from './load/load-strategy-file.js';
export { loadStrategyFiles } from './load/load-strategy-files.js';
export type { StrategyPlugin, PluginDecision } from './load/plugin-contract.js';
export {
  strategyFileSchema,
  type StrategyDefinition,
  type ParamSpec,
  type FilterDefinition,
  type ScoreDefinition,
  type PricingDefinition,
  type DataDefinition,
} from './definition/strategy-schema.js';
export { FEATURES, FEATURE_NAMES, featureByName } from './features/feature-catalogue.js';
export type { FeatureDefinition, FeatureGroup, FeatureValue } from './features/feature-definition.js';
export { parseCreditScoreRange, type CreditScoreRange } from './features/credit-score-range.js';
export {
  decideSync,
  decideAsync,
  budgetOfDecision,
  MAX_DATA_ROUNDS,
  type DataSource,
  type Fetched,
  type SpendLedger,
  type PurchaseEntry,
  type DecideContext,
  type DecideOutcome,
  type OfferToGuard,
  type AmountToGuard,
  type GuardQuestion,
} from './decide-step.js';
export { UNFITTED_MARKET_TEXT } from './market-source.js';
export type { MarketSource } from './compiled-strategy.js';
export {
  DEFAULT_MARKET_RESPONSE,
  marketResponse,
  ratePosition,
  takeUpProbability,
  takeUpAt,
  takeUpDependsOnBorrower,
  beatProbability,
  beatsHard,
  acceptProbability,
  expectedAcceptProbability,
  normalCdf,
  type MarketResponse,
  type PartialMarketResponse,
  type TakeUpCurve,
  type CompetitionModel,
  type RecordedCompetition,
  type CompetitionComparison,
} from './market-response.js';
export { eventDropReason, type EventFacts } from './compile/event-prefilter.js';
export { strategyRoles, type StrategyLayer, type StrategyRoles } from './strategy-roles.js';
