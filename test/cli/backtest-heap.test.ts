import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BACKTEST_HEAP_GROWING_PERCENT, limitBacktestHeapGrowth } from '../../src/cli/commands/backtest/backtest-heap.js';
import { HEAP_GROWING_PERCENT } from '../../src/cli/commands/run/daemon-heap.js';

const MODULE = fileURLToPath(new URL('../../src/cli/commands/backtest/backtest-heap.ts', import.meta.url));

/** Whether `limitBacktestHeapGrowth()` set the flag, in a node process of its own started with `nodeFlags`. */
function limitsInChild(nodeFlags: string[]): boolean {
  const script = `import { limitBacktestHeapGrowth } from ${JSON.stringify(MODULE)};\nconsole.log(JSON.stringify(limitBacktestHeapGrowth()));`;
  const run = spawnSync(process.execPath, [...nodeFlags, '--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
  expect(run.stderr).toBe('');
  return JSON.parse(run.stdout) as boolean;
}

describe('the backtest heap growth limit (lendbot backtest)', () => {
  it('is set when the operator chose nothing, looser than the daemon’s (a backtest holds far more)', () => {
    expect(limitsInChild([])).toBe(true);
    expect(BACKTEST_HEAP_GROWING_PERCENT).toBeGreaterThan(HEAP_GROWING_PERCENT);
  });

  it("leaves the operator's own node flag", () => {
    expect(limitsInChild(['--heap-growing-percent=80'])).toBe(false);
    expect(limitBacktestHeapGrowth(['--heap_growing_percent=80'])).toBe(false);
  });
});
