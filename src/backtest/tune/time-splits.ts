/**
 * Training and held-out periods, always in time order (a tune must never train on the future):
 * one split at a fraction of the requests, or K anchored walk-forward windows, where window i
 * trains on the first i of K+1 equal chunks and is tested on chunk i+1.
 */
import { sliceRecording, type PreparedRecording } from '../prepared-recording.js';

export type SplitSpec = { kind: 'split'; trainShare: number } | { kind: 'walk_forward'; windows: number };

export interface TimeWindow {
  train: PreparedRecording;
  test: PreparedRecording;
}

export function timeWindows(recording: PreparedRecording, spec: SplitSpec): TimeWindow[] {
  const n = recording.entries.length;
  if (spec.kind === 'split') {
    if (!(spec.trainShare > 0 && spec.trainShare < 1)) throw new RangeError('the training share must be between 0 and 1');
    const cut = Math.round(n * spec.trainShare);
    return [{ train: sliceRecording(recording, 0, cut), test: sliceRecording(recording, cut, n) }];
  }
  if (!Number.isInteger(spec.windows) || spec.windows < 1) throw new RangeError('walk-forward needs a whole number of windows from 1');
  const chunk = n / (spec.windows + 1);
  const windows: TimeWindow[] = [];
  for (let i = 1; i <= spec.windows; i += 1) {
    const cut = Math.round(chunk * i);
    windows.push({ train: sliceRecording(recording, 0, cut), test: sliceRecording(recording, cut, Math.round(chunk * (i + 1))) });
  }
  return windows;
}
