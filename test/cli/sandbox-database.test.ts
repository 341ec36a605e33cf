import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sandboxDatabase } from '../../src/cli/commands/run/sandbox-database.js';
import { silentLogger } from '../../src/log/logger.js';
import { fileHoldsDecisions, openStore } from '../../src/store/index.js';
import { prepareSandboxRun } from '../../src/cli/commands/run/sandbox-run.js';
import { daemonConfigSchema } from '../../src/daemon/daemon-config.js';
import { CLOCK_KEY } from '../../src/ops/status-clock.js';
import { storedReasons } from '../../src/store/reason-texts-to-values.js';

const dir = mkdtempSync(join(tmpdir(), 'lendbot-sandbox-db-'));
// This machine's time in the tests: a sandbox run's last clock reading is compared with it.
const NOW = Date.parse('2026-11-29T05:30:00Z');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the database of a sandbox run', () => {
  it('moves the default path to an emptied sandbox.db beside it, leaving the live file alone', () => {
    const live = join(dir, 'lendbot.db');
    writeFileSync(live, 'live data');
    writeFileSync(join(dir, 'sandbox.db'), 'an earlier sandbox run');
    writeFileSync(join(dir, 'sandbox.db-wal'), 'its log');
    expect(sandboxDatabase(live, live, silentLogger, NOW)).toBe(join(dir, 'sandbox.db'));
    expect(existsSync(join(dir, 'sandbox.db'))).toBe(false);
    expect(existsSync(join(dir, 'sandbox.db-wal'))).toBe(false);
    expect(existsSync(live)).toBe(true);
  });

  it('accepts a chosen path that is new or has no decisions', () => {
    expect(sandboxDatabase(join(dir, 'new.db'), join(dir, 'lendbot.db'), silentLogger, NOW)).toBe(join(dir, 'new.db'));
    const empty = join(dir, 'empty.db');
    openStore(empty).close();
    expect(sandboxDatabase(empty, join(dir, 'lendbot.db'), silentLogger, NOW)).toBe(empty);
  });

  it('refuses a chosen path that holds decisions, since sandbox ids would collide', () => {
    const used = join(dir, 'used.db');
    const store = openStore(used);
    store.decisions.record({ loanRequestId: 1001, action: 'skip', reasons: storedReasons(['test']), dryRun: false, decidedAtMs: 0 });
    store.close();
    expect(() => sandboxDatabase(used, join(dir, 'lendbot.db'), silentLogger, NOW)).toThrow(
      `${used} holds decisions from another run, but the sandbox market starts afresh each time and its request ids would collide; point LENDBOT_DB (or --db) at a new file, or drop --sandbox (and LENDBOT_SANDBOX) and set LENDBOT_BASE_URL to trade for real`,
    );
  });

  it('never empties the sandbox database of a run still writing it (a second npm start)', () => {
    const sub = mkdtempSync(join(dir, 'running-'));
    const live = join(sub, 'lendbot.db');
    const sandbox = join(sub, 'sandbox.db');
    const store = openStore(sandbox);
    store.decisions.record({ loanRequestId: 1001, action: 'skip', reasons: storedReasons(['test']), dryRun: false, decidedAtMs: 0 });
    // What a sandbox run records every second: its simulated clock, read a second ago.
    const reading = { kind: 'simulated', speed: 86400, at: '2026-03-01T00:00:00.000Z', wall_at: new Date(NOW - 1000).toISOString() };
    store.state.set(CLOCK_KEY, JSON.stringify({ ...reading, stopped: false }), 0);
    store.close();
    expect(() => sandboxDatabase(live, live, silentLogger, NOW)).toThrow(
      `${sandbox} belongs to a sandbox run that is still running (npm start in another terminal?): stop it first, or point LENDBOT_DB (or --db) at a new file`,
    );
    expect(fileHoldsDecisions(sandbox)).toBe(true);
    // Once that run stopped (its last reading says so), the next run starts afresh.
    const stopped = openStore(sandbox);
    stopped.state.set(CLOCK_KEY, JSON.stringify({ ...reading, stopped: true }), 0);
    stopped.close();
    expect(sandboxDatabase(live, live, silentLogger, NOW)).toBe(sandbox);
    expect(existsSync(sandbox)).toBe(false);
  });

  it('empties the database of a run that crashed (its readings stopped coming)', () => {
    const sub = mkdtempSync(join(dir, 'crashed-'));
    const live = join(sub, 'lendbot.db');
    const sandbox = join(sub, 'sandbox.db');
    const store = openStore(sandbox);
    const reading = {
      kind: 'simulated',
      speed: 86400,
      at: '2026-03-01T00:00:00.000Z',
      wall_at: new Date(NOW - 60_000).toISOString(),
      stopped: false,
    };
    store.state.set(CLOCK_KEY, JSON.stringify(reading), 0);
    store.close();
    expect(sandboxDatabase(live, live, silentLogger, NOW)).toBe(sandbox);
    expect(existsSync(sandbox)).toBe(false);
  });

  it('checks the strategy files before emptying the previous run: a typo loses nothing', async () => {
    const sub = mkdtempSync(join(dir, 'typo-'));
    const live = join(sub, 'lendbot.db');
    const sandbox = join(sub, 'sandbox.db');
    const store = openStore(sandbox);
    store.decisions.record({ loanRequestId: 1001, action: 'skip', reasons: storedReasons(['test']), dryRun: false, decidedAtMs: 0 });
    store.close();
    const config = { ...daemonConfigSchema.parse({}), db: live, strategies: [join(sub, 'balanced.yml')] };
    await expect(prepareSandboxRun(config, silentLogger, {}, live)).rejects.toThrow('file not found');
    expect(fileHoldsDecisions(sandbox)).toBe(true);
  });
});
