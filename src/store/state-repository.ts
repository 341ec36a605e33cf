// Small named values the daemon keeps between runs (last_poll_at, last_reconcile_at, ...).
import type { Database } from 'better-sqlite3';
import { isoFromMs } from './sql-values.js';

export interface StateRepository {
  get(key: string): string | undefined;
  set(key: string, value: string, atMs: number): void;
}

export function createStateRepository(db: Database): StateRepository {
  const read = db.prepare<[string], { value: string }>('SELECT value FROM state WHERE key = ?');
  const write = db.prepare(
    `INSERT INTO state (key, value, updated_at) VALUES (?, ?, ?)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
  );
  return {
    get: (key) => read.get(key)?.value,
    set(key, value, atMs) {
      write.run(key, value, isoFromMs(atMs));
    },
  };
}
