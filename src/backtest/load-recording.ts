/**
 * A recording file read into the entries a replay walks (prepared-recording.ts): the compact
 * reader for every replay, and the readable reference it is held equal to
 * (test/backtest/compact-recording.test.ts).
 */
import type { RecordingLineIssue } from '../recording/index.js';
import { readRecordingLines } from '../recording/recording-io.js';
import { loadCompactRecording, type CompactReadOptions } from './compact/compact-recording.js';
import { prepareRecording, type PeriodFilter, type PreparedRecording } from './prepared-recording.js';

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

/** loadRecording the readable way: every line parsed and kept, then prepareRecording (the compact reader's reference). */
export async function loadRecordingLines(
  file: string,
  period: PeriodFilter,
  onIssue: (issue: RecordingLineIssue) => void,
): Promise<PreparedRecording> {
  return prepareRecording(await readRecordingLines(file, onIssue), period);
}
