// The sandbox marketplace's public face: start one in-process, drive it, or export recordings.
export { startSandbox, DEFAULT_START_TIME, DEFAULT_PROVIDER_NAMES } from './start-sandbox.js';
export type { SandboxOptions, SandboxHandle, SandboxCredentials } from './start-sandbox.js';
export { SandboxControlError, type SandboxControl } from './control.js';
export { groundTruthOf, ifFunded, outcomeOf } from './ground-truth.js';
export type { LoanRequestFields } from './borrower-generator.js';
export { MAX_RATE_BY_COLOR } from './borrower-generator.js';
export type { SandboxFaults } from './faults.js';
export type { GroundTruth } from './ground-truth.js';
export type { Billing, ProviderNames } from './runtime.js';
export type { WebhookDelivery, WebhookSubscription } from './webhook-sender.js';
export { NEW_LOAN_REQUEST_TOPIC } from './webhook-sender.js';
export {
  exportSandboxRecording,
  recordingLine,
  runHeadlessMarket,
  type ExportOptions,
  type ExportProgress,
  type ExportSummary,
} from './recording-export.js';
export { Market, type MarketOptions } from './market.js';
export { MARKET_SHAPES, DEFAULT_SHAPE_NAME, marketShape, type MarketShape } from './shapes/index.js';
export type { HistoryRateMode } from './shapes/market-shape.js';
export { SCORE_LINKS, shiftedShape, worldShiftLabel, type ScoreLinkName, type WorldShift } from './shapes/index.js';
export { reservationRate, type BorrowerRule } from './borrower-rules.js';
