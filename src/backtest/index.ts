// The backtester's public face: the replay, its market model, report and tuning, and the decide
// step's recording-side seams (strategy explain uses them). Recordings themselves: src/recording.
export { recordingDataSource, simSpendLedger } from './recording-data.js';
export { SimLedger } from './sim-ledger.js';
export { prepareRecording, type PreparedRecording, type PeriodFilter } from './prepared-recording.js';
export { loadRecording } from './load-recording.js';
export { RecordingTooLargeError } from './compact/compact-recording.js';
export { shareCompactRecording } from './compact/shared-compact-recording.js';
export { runBacktest } from './run-backtest.js';
export type { BacktestResult } from './backtest-result.js';
export type { MarketAssumptions } from './market-model.js';
export { SEGMENT_DIMENSIONS, type SegmentRow } from './segment-stats.js';
export { backtestHtml } from './report/html-report.js';
export { points, tune, type TuneReport } from './tune/tuner.js';
export { OBJECTIVES, type Objective } from './tune/objectives.js';
export { rewriteParams } from './tune/rewrite-params.js';
export { dollars, pct, runName, sideBySideRows, summaryLines, usd } from './report/summary-lines.js';
export { DEFAULT_MAX_DEFAULT } from './tune/objectives.js';
export type { SplitSpec } from './tune/time-splits.js';
export type { RankedTrial } from './tune/tuner.js';
export { workerCount, workerPoolEvaluator } from './tune/worker-pool.js';
export { DEFAULT_MARKET, lacksOutcome, recordedCompetition, UNJUDGED_WARN_SHARE, unjudgedWarning } from './market-model.js';
export { defaultBalance, defaultBalanceRule } from './default-balance.js';
export {
  drawSeeds,
  runDraws,
  runSensitivity,
  summarizeDraws,
  type DrawsSummary,
  type DrawFigures,
  type SensitivityCase,
  type Spread,
} from './draws.js';
export { sampleSizeWarning } from './report/summary-lines.js';
export type { BacktestDecision } from './backtest-result.js';
export type { BacktestOptions } from './run-backtest.js';
export { borrowerWorlds, type BorrowerWorld } from './borrower-worlds.js';
export { runWorlds, type WorldsBand } from './worlds-band.js';
export { borrowerChoice } from './recorded-acceptance.js';
export { ownAcceptedRate } from './own-accepted-offer.js';
export type { OfferStats } from './offer-stats.js';
export {
  ADVERSE_SELECTION_HEADER,
  ADVERSE_SELECTION_NOTE,
  adverseSelectionRows,
  COMPETITION_HEADER,
  competitionRows,
} from './report/adverse-selection.js';
export { bandHeadline, headlineExplained, WORLDS_HEADER, worldsRows } from './report/worlds-band-section.js';
export { SENSITIVITY_HEADER, sensitivityNote, sensitivityRows, sensitivityTitle } from './report/sensitivity-section.js';
export { CANNOT_BE_JUDGED, cannotBeJudged, cannotBeJudgedReason } from './report/unjudgeable.js';
export { verdictLine } from './report/verdict.js';
export { idleHeadline } from './report/idle-headline.js';
export { offerOutcomesText } from './report/adverse-selection.js';
export { riskLevelLabel } from './report/summary-lines.js';
