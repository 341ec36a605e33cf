/** Exports a test store as the daemon would at `nowMs` and reads the recording back, by request id. */
import { expect } from 'vitest';
import { ManualClock } from '../../src/clock/clock.js';
import { exportRecordingFromStore, readRecording, type RecordingLine } from '../../src/recording/index.js';
import type { Store } from '../../src/store/index.js';

export async function exportedLines(store: Store, file: string, nowMs: number, offerExpiryMs: number): Promise<Map<number, RecordingLine>> {
  const summary = await exportRecordingFromStore(store, file, { clock: new ManualClock(nowMs), offerExpiryMs });
  expect(summary.invalid).toEqual([]);
  const lines = new Map<number, RecordingLine>();
  for await (const line of readRecording(file, (issue) => expect.unreachable(issue.message))) lines.set(line.loan_request.id, line);
  return lines;
}
