/**
 * A reader that stops reading (`lendbot decisions | head`) ends the command quietly with exit
 * code 0, not with an EPIPE stack trace. The real binary runs as a child process whose stdout is
 * a pipe this test closes early.
 */
import { spawn } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempStore } from '../store/fixtures.js';
import { BIN, cleanEnv } from './run-cli.js';
import { storedReasons } from '../../src/store/reason-texts-to-values.js';

interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  /** Bytes read before the pipe was closed. */
  read: number;
}

/** Runs `lendbot ARGS`, closing its stdout after `keepBytes` bytes (0: before it writes anything). */
function runClosingEarly(args: string[], keepBytes: number): Promise<Ended> {
  const child = spawn(process.execPath, [BIN, ...args], { env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  let read = 0;
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  if (keepBytes === 0) child.stdout.destroy();
  else {
    child.stdout.on('data', (chunk: Buffer) => {
      read += chunk.length;
      if (read >= keepBytes) child.stdout.destroy();
    });
  }
  return new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stderr, read })));
}

let h: ReturnType<typeof tempStore>;
beforeEach(() => {
  h = tempStore();
  // Far more output than a pipe holds (64 KiB), so the command is still writing when the reader goes.
  for (let id = 1; id <= 3000; id += 1) {
    h.store.decisions.record({
      loanRequestId: id,
      action: 'skip',
      reasons: storedReasons([`filter credit_score < 600 (request ${id})`]),
      dryRun: false,
      decidedAtMs: id * 1000,
    });
  }
  h.store.close();
});
afterEach(() => h.cleanup());

describe('a closed stdout', () => {
  it('ends `lendbot decisions | head` with exit code 0 and nothing on stderr', { timeout: 60_000 }, async () => {
    const ended = await runClosingEarly(['decisions', '--db', h.path], 1000);
    expect(ended).toMatchObject({ code: 0, signal: null, stderr: '' });
    expect(ended.read).toBeGreaterThanOrEqual(1000);
  });

  it('ends `lendbot backtest --help | head` the same way when the reader is gone before it writes', { timeout: 60_000 }, async () => {
    expect(await runClosingEarly(['backtest', '--help'], 0)).toEqual({ code: 0, signal: null, stderr: '', read: 0 });
  });
});
