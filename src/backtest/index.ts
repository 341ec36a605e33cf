// The backtester's public face: recordings, the replay, its report, and tuning.
export { RECORDING_VERSION, OUTCOME_STATUSES, recordingLineSchema, outcomeSchema, type RecordingLine, type Outcome, type OutcomeStatus } from './recording-schema.js';
export { readRecording, parseRecordingLine, formatRecordingLine, type RecordingLineIssue } from './recording-io.js';
export { recordingJsonSchemaText } from './recording-json-schema.js';
export { prepareRecording, loadRecording, sliceRecording, type PreparedRecording, type ReplayEntry, type PeriodFilter } from './prepared-recording.js';
export { runBacktest, type BacktestOptions } from './run-backtest.js';
export type { BacktestResult, BacktestDecision, BacktestSummary, SeriesPoint, StrategyRun } from './backtest-result.js';
export { DEFAULT_MARKET, judgeOffer, loanCashFlows, type MarketAssumptions, type MarketVerdict, type LoanCashFlows } from './market-model.js';
export { SEGMENT_DIMENSIONS, type SegmentDimension, type SegmentRow } from './segment-stats.js';
export { backtestHtml } from './report/html-report.js';
export { tune, type TuneOptions, type TuneReport } from './tune/tuner.js';
export { OBJECTIVES, type Objective } from './tune/objectives.js';
export { rewriteParams } from './tune/rewrite-params.js';
