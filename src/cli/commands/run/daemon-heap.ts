/**
 * How far the daemon's V8 heap may grow between full collections (src/cli/heap-growth.ts). With
 * V8's default the daemon's 25–30 MB live heap swelled to 80 MB, its resident memory from 110 to
 * 170 MB, before each full collection (bench/daemon-memory.ts). Growing by 30 % at most, which is
 * what V8 itself allows on small devices, keeps it near what is live, at the price of more
 * frequent full collections of a small heap. Set when `lendbot run` starts, so that it applies to
 * the daemon however it is started (npm start, the image, a service manager); a backtest sets its
 * own (src/cli/commands/backtest/backtest-heap.ts), and so does a tuning run (tune/tune-heap.ts).
 */
import { limitHeapGrowth } from '../../heap-growth.js';

export const HEAP_GROWING_PERCENT = 30;

/** Limits the heap's growth, unless the operator chose a value; says whether it did. */
export function limitDaemonHeapGrowth(execArgv: readonly string[] = process.execArgv): boolean {
  return limitHeapGrowth(HEAP_GROWING_PERCENT, execArgv);
}
