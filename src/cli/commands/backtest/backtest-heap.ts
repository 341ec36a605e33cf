/**
 * How far a backtest's V8 heap may grow between full collections (src/cli/heap-growth.ts). On
 * the 1,000,000-request recording the one-draw command peaked at 1,069 MB with V8's default, of
 * which the recording holds about 700 MB and most of the rest was garbage of the replays not yet
 * collected; growing by 50 % at most it peaked at 850-866 MB (issue 39's goal: at most 1 GB) for
 * more full collections of a large heap (64-78 s of CPU against 64-66 s, on a loaded machine),
 * and on the 200,000-request export 310-325 MB instead of 416-443 MB. The reports are the same:
 * only when garbage is collected changes. An operator's own `--heap-growing-percent` node flag
 * wins.
 */
import { limitHeapGrowth } from '../../heap-growth.js';

export const BACKTEST_HEAP_GROWING_PERCENT = 50;

/** Limits the backtest's heap growth, unless the operator chose a value; says whether it did. */
export function limitBacktestHeapGrowth(execArgv: readonly string[] = process.execArgv): boolean {
  return limitHeapGrowth(BACKTEST_HEAP_GROWING_PERCENT, execArgv);
}
