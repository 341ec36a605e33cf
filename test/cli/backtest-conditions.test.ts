/**
 * Which database's account a backtest reads its balance from when none is given: the configured
 * one, or after `npm start` (a sandbox run with the default path) the sandbox run's, as
 * `lendbot status` reads it; files on disk in a temp dir.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { accountDatabase } from '../../src/cli/commands/backtest/conditions.js';
import { exportSandboxRecording } from '../../src/sandbox/index.js';
import { runCli } from './run-cli.js';

describe('the database a backtest reads the account balance from', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lendbot-backtest-conditions-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('is the configured file, or the sandbox run’s beside the default one when only that exists', async () => {
    const defaultPath = join(dir, 'lendbot.db');
    const chosen = join(dir, 'mine.db');
    expect(accountDatabase(defaultPath, defaultPath)).toBe(defaultPath);
    await writeFile(join(dir, 'sandbox.db'), '');
    expect(accountDatabase(defaultPath, defaultPath)).toBe(join(dir, 'sandbox.db'));
    // A path the user chose is theirs, even when it does not exist.
    expect(accountDatabase(chosen, defaultPath)).toBe(chosen);
    await writeFile(defaultPath, '');
    expect(accountDatabase(defaultPath, defaultPath)).toBe(defaultPath);
  });
});

describe('a database found by default that cannot be read', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lendbot-backtest-unreadable-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('only informs the balance: the backtest runs on the recording’s balance and says why', async () => {
    const data = join(dir, 'market.jsonl');
    await exportSandboxRecording(data, { seed: 3, requests: 120, arrivalsPerHour: 3 });
    // Another program's SQLite file where the config says the daemon's database is.
    const db = join(dir, 'other.db');
    const foreign = new Database(db);
    foreign.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)');
    foreign.close();
    const config = join(dir, 'lendbot.yaml');
    await writeFile(config, `db: ${db}\n`);
    const base = [
      'backtest',
      '--data',
      data,
      '--strategy',
      'strategies/balanced.yaml',
      '--draws',
      '1',
      '--no-sensitivity',
      '--no-worlds',
      '--config',
      config,
    ];

    const found = await runCli(base);
    expect(found.stderr).toBe('');
    expect(found.code).toBe(0);
    expect(found.stdout).toMatch(
      new RegExp(`Conditions: .*\\(the account in ${db.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} could not be read: .+\\)`),
    );
  });
});
