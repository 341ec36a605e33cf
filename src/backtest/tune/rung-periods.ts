/**
 * The requests a trial task replays: a window's held-out period, its whole training period, or a
 * halving rung's part of it (the most recent requests of the period, successive-halving.ts).
 *
 * This module keeps a bounded memo of each tune context's halving rung periods (MEMO_RUNG_PERIODS:
 * one list of entries per rung and window, held weakly by the context: they go when the tune does).
 */
import { sliceRecording, type PreparedRecording } from '../prepared-recording.js';
import { rungStart } from './successive-halving.js';
import type { TrialContext, TrialTask } from './trial-context.js';

/** Per tune context (weakly, as long as the context), the rung parts of each training period: one per rung and window. */
const MEMO_RUNG_PERIODS = new WeakMap<TrialContext, Map<string, PreparedRecording>>();

/** The requests a task replays: the held-out period, the whole training period, or a rung's part of it. */
export function trialPeriod(context: TrialContext, task: TrialTask): PreparedRecording {
  const window = context.windows[task.window];
  if (!window) throw new RangeError(`no window ${task.window}`);
  if (task.part === 'test') return window.test;
  const share = task.rung === undefined ? 1 : context.rungShares?.[task.rung];
  if (share === undefined) throw new RangeError(`no rung ${task.rung}`);
  if (share >= 1) return window.train;
  let byKey = MEMO_RUNG_PERIODS.get(context);
  if (!byKey) MEMO_RUNG_PERIODS.set(context, (byKey = new Map()));
  const key = `${task.window} ${task.rung}`;
  let period = byKey.get(key);
  if (!period) {
    const n = window.train.entries.length;
    byKey.set(key, (period = sliceRecording(window.train, rungStart(n, share), n)));
  }
  return period;
}
