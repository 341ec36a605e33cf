// Checkpoints are the daemon's to run when idle (Store.checkpoint); SQLite's own only after
// WAL_AUTOCHECKPOINT_PAGES, so a commit on the way to an offer rarely pays for one.
import { statSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { databaseOf, WAL_AUTOCHECKPOINT_PAGES, type Store } from '../../src/store/index.js';
import { T0, loanRequest, tempStore } from './fixtures.js';

let store: Store;
let path: string;
let cleanup: () => void;
beforeEach(() => {
  ({ store, path, cleanup } = tempStore());
});
afterEach(() => cleanup());

describe('WAL checkpoints', () => {
  it('leaves commits in the WAL until the store is checkpointed', () => {
    expect(databaseOf(store).pragma('wal_autocheckpoint', { simple: true })).toBe(WAL_AUTOCHECKPOINT_PAGES);
    expect(WAL_AUTOCHECKPOINT_PAGES).toBe(10_000);
    const before = statSync(path).size;
    for (let id = 1; id <= 50; id++) store.requests.markSeen(loanRequest({ id }), 'poll', T0);
    expect(statSync(path).size).toBe(before);
    store.checkpoint();
    expect(statSync(path).size).toBeGreaterThan(before);
    expect(store.requests.list()).toHaveLength(50);
  });

  it('does nothing once the store is closed', () => {
    store.close();
    expect(() => store.checkpoint()).not.toThrow();
  });
});
