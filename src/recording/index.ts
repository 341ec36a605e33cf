// The recording format's public face: what a recording line is, reading and writing JSON lines,
// its JSON Schema, and exporting the daemon's history from the store (docs/recording-format.md).
export {
  RECORDING_VERSION,
  recordingLineSchema,
  type RecordingLine,
  type Outcome,
  type RecordedData,
  type LineWithoutData,
} from './recording-schema.js';
export { readRecording, parseRecordingLine, formatRecordingLine, openRecordingWriter, type RecordingLineIssue } from './recording-io.js';
export { recordingJsonSchemaText } from './recording-json-schema.js';
export { exportRecordingFromStore, recordingLinesFromStore } from './export-from-store.js';
