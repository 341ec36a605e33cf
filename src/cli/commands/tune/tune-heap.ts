/**
 * How far a tune's V8 heaps may grow between full collections (src/cli/heap-growth.ts): this
 * thread's and its worker threads', since V8 flags are the process's and a worker's heap reads
 * this one at each full collection. A tune replays its trials for minutes, each one's garbage
 * mostly short-lived, and V8's default let each replaying heap swell to several times what is
 * live: on 1,000,000 requests the two workers' heaps added about 320 MB each to the recording's
 * 700 MB (peak 1,336-1,436 MB). The figure and its price are in docs/performance.md. The reports
 * are the same: only when garbage is collected changes. An operator's own
 * `--heap-growing-percent` node flag wins.
 */
import { limitHeapGrowth } from '../../heap-growth.js';

export const TUNE_HEAP_GROWING_PERCENT = 50;

/** Limits the tune's heap growth (this thread's and, set before they start, its workers'), unless the operator chose a value; says whether it did. */
export function limitTuneHeapGrowth(execArgv: readonly string[] = process.execArgv): boolean {
  return limitHeapGrowth(TUNE_HEAP_GROWING_PERCENT, execArgv);
}
