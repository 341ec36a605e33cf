/**
 * The managed versions laid over the strategy files (src/retrain/managed-strategies.ts), on a real
 * SQLite file: a version in force runs instead of its file while the file is the one it was built
 * on; once the lender edits the file, the file runs again, said in the log.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withCalibration } from '../../src/backtest/calibration/index.js';
import { loadStrategyFile, type CompiledStrategy } from '../../src/engine/index.js';
import { ManagedStrategies } from '../../src/retrain/index.js';
import { createRetrainRepository, databaseOf, openStore, type Store } from '../../src/store/index.js';
import { captureLog } from '../log/log-capture.js';
import { OPTIMIST } from './retrain-fixture.js';

let dir: string;
let store: Store;
let file: CompiledStrategy;
let retrained: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lendbot-managed-'));
  store = openStore(join(dir, 'lendbot.db'));
  file = await loadStrategyFile(OPTIMIST);
  retrained = withCalibration(await readFile(OPTIMIST, 'utf8'), { method: 'platt', a: 0.8, b: -0.3 });
});
afterAll(async () => {
  store.close();
  await rm(dir, { recursive: true, force: true });
});

const swapNow = async (apply: () => void): Promise<void> => apply();

describe('managed strategy versions', () => {
  it('run instead of the file built on, and give way to an edited file', async () => {
    const repo = createRetrainRepository(databaseOf(store));
    const { log, lines } = captureLog();
    const managed = new ManagedStrategies(repo, log);
    expect(managed.over([file])).toEqual([file]);

    const base = {
      strategy: 'optimist',
      kind: 'promoted' as const,
      roundId: null,
      text: retrained,
      model: null,
      parentId: null,
      restoredId: null,
    };
    repo.addVersion({ ...base, fileHash: file.contentHash }, 0);
    expect(await managed.refresh([file], swapNow)).toBe(true);
    const [running] = managed.over([file]);
    expect(running?.name).toBe('optimist');
    expect(running?.contentHash).not.toBe(file.contentHash);
    expect(await managed.textOf(file)).toBe(retrained);
    // Nothing changed: nothing is compiled again.
    expect(await managed.refresh([file], swapNow)).toBe(false);

    // A version built on another text of the file (the lender edited it since): the file runs.
    repo.addVersion({ ...base, fileHash: '0123456789abcdef' }, 1);
    await managed.refresh([file], swapNow);
    expect(managed.over([file])).toEqual([file]);
    expect(lines.map((line) => line.msg)).toContain(
      "optimist's file changed since retrained version #2 was built on it; the file runs (lendbot retrain history)",
    );
  });
});
