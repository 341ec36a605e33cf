/**
 * How far the daemon's V8 heap may grow between full collections. With the default limits on a
 * machine with gigabytes of memory, V8 lets the old generation grow to about four times what is
 * live before it collects it: the daemon's 25–30 MB live heap swelled to 80 MB, its resident
 * memory from 110 to 170 MB, before each full collection (bench/daemon-memory.ts). Growing by
 * 30 % at most, which is what V8 itself allows on small devices, keeps it near what is live, at
 * the price of more frequent full collections of a small heap.
 *
 * Set when `lendbot run` starts, not as a node flag, so that it applies to the daemon however it
 * is started (npm start, the image, a service manager) and never to a backtest or a tuning run,
 * which hold far more and would collect far more often. V8 reads this setting at each full
 * collection, so setting it after start-up takes effect at the next one.
 */
import { setFlagsFromString } from 'node:v8';

export const HEAP_GROWING_PERCENT = 30;

// Node refuses this flag in NODE_OPTIONS: an operator's own value can only be a node flag.
const FLAG = /^--heap[-_]growing[-_]percent\b/;

/** Limits the heap's growth, unless the operator chose a value; says whether it did. */
export function limitDaemonHeapGrowth(execArgv: readonly string[] = process.execArgv): boolean {
  if (execArgv.some((arg) => FLAG.test(arg))) return false;
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  return true;
}
