import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { limitDaemonHeapGrowth } from '../../src/cli/commands/run/daemon-heap.js';

const MODULE = fileURLToPath(new URL('../../src/cli/commands/run/daemon-heap.ts', import.meta.url));

/** Whether `limitDaemonHeapGrowth()` set the flag, in a node process of its own started with `nodeFlags`. */
function limitsInChild(nodeFlags: string[]): boolean {
  const script = `import { limitDaemonHeapGrowth } from ${JSON.stringify(MODULE)};\nconsole.log(JSON.stringify(limitDaemonHeapGrowth()));`;
  const run = spawnSync(process.execPath, [...nodeFlags, '--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
  expect(run.stderr).toBe('');
  return JSON.parse(run.stdout) as boolean;
}

describe('the daemon heap growth limit (lendbot run)', () => {
  it('is set when the operator chose nothing', () => {
    expect(limitsInChild(['--max-semi-space-size=2'])).toBe(true);
  });

  it("leaves the operator's own node flag", () => {
    expect(limitsInChild(['--heap-growing-percent=50'])).toBe(false);
    expect(limitsInChild(['--heap_growing_percent=50'])).toBe(false);
    // Read from the arguments given, with no side effect when it leaves them.
    expect(limitDaemonHeapGrowth(['--max-semi-space-size=2', '--heap-growing-percent=10'])).toBe(false);
  });
});
