/**
 * How far V8's heap may grow between full collections, for a command that sets it. With the
 * default limits on a machine with gigabytes of memory, V8 lets the old generation grow to about
 * four times what is live before it collects it, so a process's resident memory is mostly garbage
 * not yet collected. A command that sets a percent here trades more frequent full collections for
 * a peak near what is live: the daemon (`lendbot run`, run/daemon-heap.ts), the backtest
 * (backtest/backtest-heap.ts) and the tune (tune/tune-heap.ts), each with its own figure. V8's
 * flags are the process's: worker threads (tune's) collect their heaps by the same setting.
 *
 * Set when the command starts, not as a node flag, so that it applies however the command is
 * started. V8 reads this setting at each full collection, so setting it after start-up takes
 * effect at the next one.
 */
import { setFlagsFromString } from 'node:v8';

// Node refuses this flag in NODE_OPTIONS: an operator's own value can only be a node flag.
const FLAG = /^--heap[-_]growing[-_]percent\b/;

/** The percent this process last set (undefined: none, V8's default or the operator's flag). */
let limited: number | undefined;

/** Limits the heap's growth to `percent`, unless the operator chose a value; says whether it did. */
export function limitHeapGrowth(percent: number, execArgv: readonly string[] = process.execArgv): boolean {
  if (execArgv.some((arg) => FLAG.test(arg))) return false;
  setFlagsFromString(`--heap-growing-percent=${percent}`);
  limited = percent;
  return true;
}

/** The heap growth percent a command set in this process (undefined when none did): V8 cannot be asked its flags. */
export function heapGrowthLimit(): number | undefined {
  return limited;
}
