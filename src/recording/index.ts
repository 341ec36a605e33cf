// The recording format's public face: what a recording line is, reading and writing JSON lines,
// its JSON Schema, and exporting the daemon's history from the store (docs/recording-format.md).
export { RECORDING_VERSION, OUTCOME_STATUSES, recordingLineSchema, outcomeSchema, type RecordingLine, type Outcome, type OutcomeStatus } from './recording-schema.js';
export { readRecording, parseRecordingLine, formatRecordingLine, openRecordingWriter, type RecordingLineIssue, type RecordingWriter } from './recording-io.js';
export { recordingJsonSchemaText, RECORDING_SCHEMA_ID } from './recording-json-schema.js';
export { exportRecordingFromStore, recordingLinesFromStore, outcomeOf, type ExportSummary } from './export-from-store.js';
