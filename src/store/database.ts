/**
 * Opening the SQLite file: pragmas, migrations, closing. The daemon is the only writer, but the
 * CLI (`lendbot decisions`) may read at the same time, hence WAL and a busy timeout.
 */
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import type { Database } from 'better-sqlite3';
import { AppError } from '../log/app-error.js';
import { LATEST_VERSION, MIGRATIONS, type Migration } from './migrations.js';

export type { Database };

/** How long a statement waits for another connection's lock before failing with SQLITE_BUSY. */
export const BUSY_TIMEOUT_MS = 5_000;

/** The file was written by a newer lendbot; this build cannot know its schema. */
export class StoreVersionError extends AppError {
  override readonly name = 'StoreVersionError';
  readonly code = 'STORE_VERSION_TOO_NEW';

  constructor(path: string, fileVersion: number, knownVersion: number) {
    super(
      `database ${path} has schema version ${fileVersion}, newer than ${knownVersion} known to this ` +
        'lendbot: upgrade lendbot, or point LENDBOT_DB (--db) at another file',
    );
  }
}

/**
 * The file holds borrowers' data and the lender's decisions: owner-only. Folders lendbot creates
 * are 0700; a folder the user chose (/tmp, a container volume) is left as it is. The file is
 * created 0600 before SQLite opens it (SQLite gives its -wal and -shm files the database file's
 * mode), and an existing file readable by others is tightened to 0600 at every open.
 */
function prepareOwnerOnlyFile(path: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  if (!existsSync(path)) closeSync(openSync(path, 'a', 0o600));
  chmodSync(path, 0o600);
}

/** Opens (creating if needed) a database file and brings its schema to the latest version. */
export function openDatabase(path: string, migrations: readonly Migration[] = MIGRATIONS): Database {
  if (path !== ':memory:') prepareOwnerOnlyFile(path);
  const db = new BetterSqlite3(path);
  try {
    db.pragma('journal_mode = WAL');
    // FULL, not NORMAL: a webhook answered 200 must survive a power cut, not only a crash.
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    migrate(db, path, migrations);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/** The schema version a database is at. */
export function schemaVersion(db: Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/** Applies the steps newer than the file's version, all in one transaction. */
export function migrate(db: Database, path: string, migrations: readonly Migration[] = MIGRATIONS): number {
  const known = migrations.reduce((max, step) => Math.max(max, step.version), 0);
  // IMMEDIATE takes the write lock first, so two processes opening one old file cannot both migrate.
  const run = db.transaction(() => {
    const current = schemaVersion(db);
    if (current > known) throw new StoreVersionError(path, current, known);
    const pending = migrations.filter((step) => step.version > current).sort((a, b) => a.version - b.version);
    for (const step of pending) {
      db.exec(step.sql);
      db.pragma(`user_version = ${step.version}`);
    }
    return schemaVersion(db);
  });
  return run.immediate();
}

export { LATEST_VERSION };

/** Whether an existing database file holds any decision, read without changing it (no migration). */
export function fileHoldsDecisions(path: string): boolean {
  const db = new BetterSqlite3(path, { readonly: true, fileMustExist: true });
  try {
    const table = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'decisions'").get();
    if (table === undefined) return false;
    return db.prepare('SELECT 1 FROM decisions LIMIT 1').get() !== undefined;
  } finally {
    db.close();
  }
}
