import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/clock.js';
import { PAUSE_KEY, Protections, protectionSettingsSchema } from '../../src/ops/protections/index.js';
import { openStore } from '../../src/store/index.js';
import { captureLog } from '../log/log-capture.js';
import { tempStore } from '../store/fixtures.js';
import { runCli } from './run-cli.js';

const BORROWING = 'Borrower can not offer.';
let h: ReturnType<typeof tempStore>;
beforeEach(() => {
  h = tempStore();
});
afterEach(() => h.cleanup());

/** Pauses offering the way the daemon does (two account refusals) at `at`, then closes the store. */
function pauseAt(at: string): void {
  const protections = new Protections({
    store: h.store,
    clock: new ManualClock(at),
    log: captureLog().log,
    settings: () => protectionSettingsSchema.parse({}),
  });
  protections.noteOfferRefusal(BORROWING);
  protections.noteOfferRefusal(BORROWING);
  h.store.close();
}

/** What a running daemon would read from the database now. */
function storedPauseText(): string | undefined {
  const store = openStore(h.path);
  try {
    return store.state.get(PAUSE_KEY);
  } finally {
    store.close();
  }
}

describe('lendbot resume', () => {
  it('lifts the pause in the database and prints what it lifted', async () => {
    pauseAt('2099-01-01T00:00:00Z');
    const result = await runCli(['resume', '--db', h.path]);
    expect(result).toEqual({
      code: 0,
      stdout:
        'lifted the account_refusal pause (since 2099-01-01T00:00:00.000Z): account_refusal protection: account refused offers 2 times in 30 min: ' +
        '"Borrower can not offer."; paused until 2099-01-01T06:00:00.000Z or lendbot resume\nnew offers resume at the next request\n',
      stderr: '',
    });
    expect(storedPauseText()).toBe('null');

    expect(await runCli(['resume'], { LENDBOT_DB: h.path })).toEqual({
      code: 0,
      stdout: 'no pause in force; new offers are not paused by a protection\n',
      stderr: '',
    });
  });

  it('refuses a database that does not exist, without creating it', async () => {
    h.store.close();
    const missing = join(h.path, '..', 'nope.db');
    expect(await runCli(['resume', '--db', missing])).toEqual({
      code: 1,
      stdout: '',
      stderr: `lendbot: no database at ${missing} (set --db or LENDBOT_DB)\n`,
    });
  });

  it('explains itself with examples in --help', async () => {
    const result = await runCli(['resume', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      'Usage: lendbot resume [options]\n\nlift a protection that paused new offers, and print what it lifted\n',
    );
    expect(result.stdout).toContain('--db <path>');
    expect(result.stdout).toContain('\nExamples:\n  lendbot status                         # why it paused (the "protections" line)\n');
    expect(result.stdout).toContain('  lendbot resume --db /data/lendbot.db\n');
  });
});
