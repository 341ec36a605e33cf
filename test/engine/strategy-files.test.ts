import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigFileError } from '../../src/config/index.js';
import { loadStrategyFiles } from '../../src/engine/index.js';

describe('loadStrategyFiles', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lendbot-strategies-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('loads strategies with distinct names', async () => {
    const strategies = await loadStrategyFiles(['strategies/balanced.yaml', 'strategies/conservative.yaml']);
    expect(strategies.map((strategy) => strategy.name)).toEqual(['balanced', 'conservative']);
  });

  it('refuses a second file with a name already taken, naming both files', async () => {
    // A copy edited by a user who forgot to rename it: the same `name`, another file.
    const copy = join(dir, 'balanced-copy.yaml');
    await copyFile('strategies/balanced.yaml', copy);
    const loading = loadStrategyFiles(['strategies/balanced.yaml', copy]);
    await expect(loading).rejects.toBeInstanceOf(ConfigFileError);
    await expect(loadStrategyFiles(['strategies/balanced.yaml', copy])).rejects.toThrow(
      `${copy}:1:1 name: strategy name "balanced" is already the name of strategies/balanced.yaml; decisions, budgets and reports tell strategies apart by name: rename one`,
    );
  });
});
