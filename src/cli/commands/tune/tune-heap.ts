/**
 * How far a tune's V8 heaps may grow between full collections (src/cli/heap-growth.ts): this
 * thread's and its worker threads', since V8 flags are the process's and a worker's heap reads
 * this one at each full collection. Two figures, one per phase:
 *
 * - while the recording is read, the backtest's (backtest-heap.ts): the read promotes much
 *   short-lived garbage, and a tighter limit there costs full collections of a growing heap in
 *   the one phase no other thread shares;
 * - from the first trial, tighter: a tune replays its trials for minutes on two threads, each
 *   holding its own entries of the recording, and V8's default let each replaying heap swell to
 *   several times what is live (on 1,000,000 requests: a peak of 1,450 MB with V8's default and
 *   two workers, 925 MB with these limits and one worker beside this thread, for 14 % more CPU).
 *   The figures are in docs/performance.md.
 *
 * The reports are the same: only when garbage is collected changes. An operator's own
 * `--heap-growing-percent` node flag wins in both phases.
 */
import { limitHeapGrowth } from '../../heap-growth.js';
import { BACKTEST_HEAP_GROWING_PERCENT } from '../backtest/backtest-heap.js';

export const TUNE_READ_HEAP_GROWING_PERCENT = BACKTEST_HEAP_GROWING_PERCENT;
export const TUNE_HEAP_GROWING_PERCENT = 20;

/** Limits the heap's growth while the recording is read, unless the operator chose a value; says whether it did. */
export function limitTuneReadHeapGrowth(execArgv: readonly string[] = process.execArgv): boolean {
  return limitHeapGrowth(TUNE_READ_HEAP_GROWING_PERCENT, execArgv);
}

/** Limits the heap's growth for the trials (this thread's and, set before they start, its workers'), unless the operator chose a value; says whether it did. */
export function limitTuneHeapGrowth(execArgv: readonly string[] = process.execArgv): boolean {
  return limitHeapGrowth(TUNE_HEAP_GROWING_PERCENT, execArgv);
}
