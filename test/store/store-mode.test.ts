import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { MIGRATIONS, StoreModeError, claimStoreMode, openStore, storeIsDryRun, type Store } from '../../src/store/index.js';
import { tempStore } from './fixtures.js';

const T0 = Date.parse('2026-03-01T00:00:00Z');

describe('the store mode: a dry run or live offers', () => {
  let h: ReturnType<typeof tempStore>;
  let store: Store;
  beforeEach(() => {
    h = tempStore();
    store = h.store;
  });
  afterEach(() => h.cleanup());

  it('a new file has none; the first daemon records its own, and views fall back to the config until then', () => {
    expect(store.mode.get()).toBeUndefined();
    expect(storeIsDryRun(store.mode, true)).toBe(true);
    expect(storeIsDryRun(store.mode, false)).toBe(false);
    expect(claimStoreMode(store.mode, { dryRun: true, switchMode: false, path: h.path, nowMs: T0 })).toBe('dry_run');
    expect(store.mode.get()).toEqual({ mode: 'dry_run', setAt: '2026-03-01T00:00:00.000Z', how: 'daemon' });
    // Now every view reads the dry run, whatever its config says.
    expect(storeIsDryRun(store.mode, false)).toBe(true);
  });

  it('keeps an equal mode, refuses the other, and switches only when asked', () => {
    claimStoreMode(store.mode, { dryRun: false, switchMode: false, path: h.path, nowMs: T0 });
    expect(claimStoreMode(store.mode, { dryRun: false, switchMode: false, path: h.path, nowMs: T0 + 1 })).toBe('live');
    expect(() => claimStoreMode(store.mode, { dryRun: true, switchMode: false, path: h.path, nowMs: T0 + 2 })).toThrow(StoreModeError);
    expect(store.mode.get()?.mode).toBe('live');
    claimStoreMode(store.mode, { dryRun: true, switchMode: true, path: h.path, nowMs: T0 + 3 });
    expect(store.mode.get()).toEqual({ mode: 'dry_run', setAt: '2026-03-01T00:00:00.003Z', how: 'switched' });
  });
});

describe('migration 19 on a file written before it', () => {
  it.each([
    ['only dry-run rows: a dry run', [1], 'dry_run'],
    ['any live row: live', [1, 0], 'live'],
    ['no rows: nothing yet', [], undefined],
  ] as const)('%s', (_name, dryRuns, expected) => {
    const h = tempStore();
    h.store.close();
    try {
      // Rebuild the file at the version before the step, with decisions of the given kinds.
      const raw = new Database(h.path);
      raw.exec('DROP TABLE store_mode');
      raw.pragma(`user_version = ${Math.max(...MIGRATIONS.filter((m) => m.version < 19).map((m) => m.version))}`);
      dryRuns.forEach((dryRun, i) =>
        raw
          .prepare(
            `INSERT INTO decisions (loan_request_id, strategy, action, dry_run, decided_at)
             VALUES (?, 's', 'skip', ?, '2026-01-01T00:00:00.000Z')`,
          )
          .run(i + 1, dryRun),
      );
      raw.close();
      const store = openStore(h.path);
      expect(store.mode.get()?.mode).toBe(expected);
      if (expected !== undefined) expect(store.mode.get()).toMatchObject({ setAt: null, how: 'inferred' });
      store.close();
    } finally {
      h.cleanup();
    }
  });
});
