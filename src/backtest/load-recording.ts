// A recording file read into the entries a replay walks (prepared-recording.ts), by the compact reader.
import type { RecordingLineIssue } from '../recording/index.js';
import { loadCompactRecording, type CompactReadOptions } from './compact/compact-recording.js';
import type { PeriodFilter, PreparedRecording } from './prepared-recording.js';

/**
 * Reads and prepares a recording file; bad lines go to `onIssue`. Read into the compact form
 * (src/backtest/compact/compact-recording.ts, the same entries as prepareRecording makes of
 * readRecordingLines, at a fraction of the memory); `options` adds progress and the memory limit.
 */
export async function loadRecording(
  file: string,
  period: PeriodFilter,
  onIssue: (issue: RecordingLineIssue) => void,
  options: Omit<CompactReadOptions, 'period' | 'onIssue'> = {},
): Promise<PreparedRecording> {
  return loadCompactRecording(file, { ...options, period, onIssue });
}
