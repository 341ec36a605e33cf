/**
 * Which database's account a backtest reads its balance from when none is given: the configured
 * one, or after `npm start` (a sandbox run with the default path) the sandbox run's, as
 * `lendbot status` reads it; files on disk in a temp dir.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountDatabase } from '../../src/cli/commands/backtest/conditions.js';

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
