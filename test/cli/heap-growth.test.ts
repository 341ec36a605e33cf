import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BACKTEST_HEAP_GROWING_PERCENT, limitBacktestHeapGrowth } from '../../src/cli/commands/backtest/backtest-heap.js';
import { HEAP_GROWING_PERCENT, limitDaemonHeapGrowth } from '../../src/cli/commands/run/daemon-heap.js';

/** Whether `name()` of `module` set the flag, in a node process of its own started with `nodeFlags`. */
function limitsInChild(module: string, name: string, nodeFlags: string[]): boolean {
  const path = fileURLToPath(new URL(`../../src/cli/commands/${module}`, import.meta.url));
  const script = `import { ${name} } from ${JSON.stringify(path)};\nconsole.log(JSON.stringify(${name}()));`;
  const run = spawnSync(process.execPath, [...nodeFlags, '--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
  expect(run.stderr).toBe('');
  return JSON.parse(run.stdout) as boolean;
}

describe('the daemon heap growth limit (lendbot run)', () => {
  const inChild = (flags: string[]): boolean => limitsInChild('run/daemon-heap.ts', 'limitDaemonHeapGrowth', flags);

  it('is set when the operator chose nothing', () => {
    expect(inChild(['--max-semi-space-size=2'])).toBe(true);
  });

  it("leaves the operator's own node flag", () => {
    expect(inChild(['--heap-growing-percent=50'])).toBe(false);
    expect(inChild(['--heap_growing_percent=50'])).toBe(false);
    // Read from the arguments given, with no side effect when it leaves them.
    expect(limitDaemonHeapGrowth(['--max-semi-space-size=2', '--heap-growing-percent=10'])).toBe(false);
  });
});

describe('the backtest heap growth limit (lendbot backtest)', () => {
  const inChild = (flags: string[]): boolean => limitsInChild('backtest/backtest-heap.ts', 'limitBacktestHeapGrowth', flags);

  it('is set when the operator chose nothing, looser than the daemon’s (a backtest holds far more)', () => {
    expect(inChild([])).toBe(true);
    expect(BACKTEST_HEAP_GROWING_PERCENT).toBeGreaterThan(HEAP_GROWING_PERCENT);
  });

  it("leaves the operator's own node flag", () => {
    expect(inChild(['--heap-growing-percent=80'])).toBe(false);
    expect(limitBacktestHeapGrowth(['--heap_growing_percent=80'])).toBe(false);
  });
});
