import { existsSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import {
  databaseOf,
  LATEST_VERSION,
  MIGRATIONS,
  StoreVersionError,
  openDatabase,
  openStore,
  schemaVersion,
  type Migration,
} from '../../src/store/index.js';
import { tempDir } from './fixtures.js';

let cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups) cleanup();
  cleanups = [];
});

function dbPath(): string {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  return join(dir, 'nested', 'deeper', 'lendbot.db');
}

function tableNames(db: BetterSqlite3.Database): string[] {
  return db
    .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .all()
    .map((row) => row.name);
}

describe('openDatabase', () => {
  it('creates the parent directory and migrates an empty file to the latest version', () => {
    const path = dbPath();
    const db = openDatabase(path);
    expect(existsSync(path)).toBe(true);
    expect(schemaVersion(db)).toBe(LATEST_VERSION);
    expect(tableNames(db)).toEqual([
      'calibration_learners',
      'calibration_loans',
      'decisions',
      'loans',
      'market_decisions',
      'market_learners',
      'offer_listings',
      'offer_proposals',
      'offers',
      'paper_offers',
      'payment_reads',
      'payments',
      'purchases',
      'requests_seen',
      'retrain_rounds',
      'shadow_decisions',
      'state',
      'store_mode',
      'strategy_versions',
      'telegram_updates',
      'transfers',
      'webhook_inbox',
    ]);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
    // NORMAL (1) by default: WAL commits survive a crash of the process without an fsync each.
    expect(db.pragma('synchronous', { simple: true })).toBe(1);
    db.close();
  });

  it('fsyncs every commit when store.synchronous is full', () => {
    const db = openDatabase(dbPath(), undefined, { synchronous: 'full' });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    db.close();
  });

  it('re-opens a migrated file without re-running anything', () => {
    const path = dbPath();
    openDatabase(path).close();
    const db = openDatabase(path);
    expect(schemaVersion(db)).toBe(LATEST_VERSION);
    db.close();
  });

  it('upgrades a file written by an older version, keeping its rows', () => {
    const path = dbPath();
    const extra: Migration = { version: LATEST_VERSION + 1, description: 'test', sql: 'ALTER TABLE state ADD COLUMN note TEXT' };
    const old = openDatabase(path);
    old.prepare("INSERT INTO state (key, value, updated_at) VALUES ('k', 'v', '2026-01-01T00:00:00.000Z')").run();
    old.close();

    const db = openDatabase(path, [...MIGRATIONS, extra]);
    expect(schemaVersion(db)).toBe(LATEST_VERSION + 1);
    expect(db.prepare('SELECT key, value, note FROM state').all()).toEqual([{ key: 'k', value: 'v', note: null }]);
    db.close();
  });

  it('refuses a file from a newer lendbot with a clear error, leaving it untouched', () => {
    const path = dbPath();
    openDatabase(path).close();
    const raw = new BetterSqlite3(path);
    raw.pragma(`user_version = ${LATEST_VERSION + 5}`);
    raw.close();

    let caught: unknown;
    try {
      openDatabase(path);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(StoreVersionError);
    expect((caught as StoreVersionError).code).toBe('STORE_VERSION_TOO_NEW');
    expect((caught as StoreVersionError).message).toBe(
      `database ${path} has schema version ${LATEST_VERSION + 5}, newer than ${LATEST_VERSION} known to this ` +
        'lendbot: upgrade lendbot, or point LENDBOT_DB (--db) at another file',
    );
    const check = new BetterSqlite3(path);
    expect(check.pragma('user_version', { simple: true })).toBe(LATEST_VERSION + 5);
    check.close();
  });

  it('rolls back every step of a failing upgrade', () => {
    const path = dbPath();
    openDatabase(path).close();
    const steps: Migration[] = [
      ...MIGRATIONS,
      { version: LATEST_VERSION + 1, description: 'ok', sql: 'CREATE TABLE extra (x INTEGER)' },
      { version: LATEST_VERSION + 2, description: 'broken', sql: 'CREATE TABLE nope (' },
    ];
    expect(() => openDatabase(path, steps)).toThrow(/syntax error|incomplete input/);
    const db = openDatabase(path);
    expect(schemaVersion(db)).toBe(LATEST_VERSION);
    expect(tableNames(db)).not.toContain('extra');
    db.close();
  });

  it('opens an in-memory store', () => {
    const store = openStore(':memory:');
    expect(schemaVersion(databaseOf(store))).toBe(LATEST_VERSION);
    store.close();
    store.close();
    expect(databaseOf(store).open).toBe(false);
  });
});
