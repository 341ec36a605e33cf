/**
 * Opening the SQLite file: pragmas, migrations, closing. The daemon is the only writer, but the
 * CLI (`lendbot decisions`) may read at the same time, hence WAL and a busy timeout.
 */
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3, { type Database } from 'better-sqlite3';
import { AppError } from '../domain/index.js';
import { LATEST_VERSION, MIGRATIONS, type Migration } from './migrations.js';
import { DEFAULT_SYNCHRONOUS, type SynchronousLevel } from './synchronous.js';

export type { Database };

/** How long a statement waits for another connection's lock before failing with SQLITE_BUSY. */
export const BUSY_TIMEOUT_MS = 5_000;

/**
 * WAL pages after which a commit checkpoints by itself. At SQLite's default (1,000 pages) that
 * happens on the commit of every few dozen webhooks, and a checkpoint's two fsyncs (about 10 ms on
 * a busy disk) then sit between a webhook and its offer. The daemon checkpoints when idle instead
 * (Store.checkpoint); this is the backstop for a store that is never idle: a WAL of about 40 MB.
 */
export const WAL_AUTOCHECKPOINT_PAGES = 10_000;

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
 * LENDBOT_DB (--db) names something that is not lendbot's database: a folder, a device, a file
 * that is not SQLite. Nothing is changed there (no chmod, no write): a configuration error.
 */
export class StorePathError extends AppError {
  override readonly name = 'StorePathError';
  readonly code = 'STORE_PATH_NOT_A_DATABASE';

  constructor(path: string, what: string) {
    super(`database path ${path} is ${what}, not a database file; nothing was changed there`, {
      hint: 'point LENDBOT_DB (or --db) at a file: a new name lendbot creates, or a database lendbot made',
    });
  }

  override userText(): string {
    return `${this.message} (${this.hint ?? ''})`;
  }
}

/** Where a warning about the file goes; lendbot's commands see it on stderr. */
type StoreWarning = (message: string) => void;

const warnOnStderr: StoreWarning = (message) => {
  process.stderr.write(`warning: ${message}\n`);
};

export interface OpenDatabaseOptions {
  /** Told when an existing file was open to other users (default: a `warning:` line on stderr). */
  onWarning?: StoreWarning;
  /** How hard a commit waits for the disk (default `normal`). */
  synchronous?: SynchronousLevel;
}

/** The mode bits of group and others. */
const GROUP_AND_OTHERS = 0o077;

/**
 * The file holds borrowers' data and the lender's decisions: owner-only. Folders lendbot creates
 * are 0700; a folder the user chose (/tmp, a container volume) is left as it is. The file is
 * created 0600 before SQLite opens it, since SQLite gives its -wal and -shm files the database
 * file's mode. An existing file (or a -wal or -shm left by a crash) open to group or others is
 * tightened to owner-only at every open, with a warning: someone may have read it already.
 */
function prepareOwnerOnlyFile(path: string, warn: StoreWarning): void {
  // Checked before anything is created or changed: only lendbot's own files are ever chmod-ed.
  for (const file of [path, `${path}-wal`, `${path}-shm`]) refuseIfNotOurs(file);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  if (!existsSync(path)) closeSync(openSync(path, 'a', 0o600));
  for (const file of [path, `${path}-wal`, `${path}-shm`]) tightenIfShared(file, warn);
}

/** The first 16 bytes of every SQLite database file. */
const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/**
 * Throws StorePathError when `file` exists and is not lendbot's to touch (databaseFileProblem).
 */
function refuseIfNotOurs(file: string): void {
  const problem = databaseFileProblem(file);
  if (problem !== undefined) throw new StorePathError(file, problem);
}

/**
 * Why `file` (the database, or its -wal or -shm) is not lendbot's to touch, or undefined: it is
 * absent, or a regular file and (the database itself, when not empty) an SQLite one. Read-only:
 * `lendbot doctor` asks it too. An empty file is one lendbot created before SQLite wrote to it.
 */
export function databaseFileProblem(file: string): string | undefined {
  let stats: Stats;
  try {
    stats = statSync(file);
  } catch {
    return undefined; // absent (or unreadable, which opening will report): nothing of someone else's to touch
  }
  const kind = notAFile(stats);
  if (kind !== undefined) return kind;
  if (file.endsWith('-wal') || file.endsWith('-shm') || stats.size === 0) return undefined;
  const header = Buffer.alloc(SQLITE_HEADER.length);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, header, 0, header.length, 0);
  } finally {
    closeSync(fd);
  }
  return header.equals(SQLITE_HEADER) ? undefined : 'a file that is not an SQLite database';
}

function notAFile(stats: Stats): string | undefined {
  if (stats.isFile()) return undefined;
  if (stats.isDirectory()) return 'a directory';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  if (stats.isFIFO()) return 'a named pipe';
  if (stats.isSocket()) return 'a socket';
  return 'not a regular file';
}

function tightenIfShared(file: string, warn: StoreWarning): void {
  if (!existsSync(file)) return;
  const mode = statSync(file).mode & 0o777;
  if ((mode & GROUP_AND_OTHERS) === 0) return;
  const ownerOnly = mode & ~GROUP_AND_OTHERS;
  try {
    chmodSync(file, ownerOnly);
    warn(`${file} was open to other users (mode ${octal(mode)}); tightened to ${octal(ownerOnly)}, owner only (see docs/store.md)`);
  } catch (error) {
    // Not ours to change (another user's file): say so, and still open it.
    warn(
      `${file} is open to other users (mode ${octal(mode)}) and could not be tightened (${(error as Error).message}); run chmod go-rwx ${file}`,
    );
  }
}

const octal = (mode: number): string => `0${mode.toString(8).padStart(3, '0')}`;

/** Opens (creating if needed) a database file and brings its schema to the latest version. */
export function openDatabase(path: string, migrations: readonly Migration[] = MIGRATIONS, options: OpenDatabaseOptions = {}): Database {
  if (path !== ':memory:' && path !== '') prepareOwnerOnlyFile(path, options.onWarning ?? warnOnStderr);
  const db = new BetterSqlite3(path);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
    // WAL + NORMAL survives a crash of this process; FULL also survives an OS crash (see SynchronousLevel).
    db.pragma(`synchronous = ${(options.synchronous ?? DEFAULT_SYNCHRONOUS) === 'full' ? 'FULL' : 'NORMAL'}`);
    db.pragma('foreign_keys = ON');
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    // better-sqlite3 builds SQLite with a 16 MB page cache per connection; SQLite's own default
    // of 2 MB holds the pages the daemon's statements touch, and the OS caches the rest of the
    // file (14 MB less resident memory over a 1 h soak, docs/performance.md).
    db.pragma('cache_size = -2000');
    migrate(db, path, migrations);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * Copies what the WAL holds into the database file, without waiting for readers (PASSIVE): what
 * the idle daemon does so that commits on the way to an offer do not.
 */
export function checkpointWal(db: Database): void {
  db.pragma('wal_checkpoint(PASSIVE)');
}

/** The schema version a database is at. */
export function schemaVersion(db: Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/** Applies the steps newer than the file's version, all in one transaction. */
function migrate(db: Database, path: string, migrations: readonly Migration[] = MIGRATIONS): number {
  const known = migrations.reduce((max, step) => Math.max(max, step.version), 0);
  // IMMEDIATE takes the write lock first, so two processes opening one old file cannot both migrate.
  const run = db.transaction(() => {
    const current = schemaVersion(db);
    if (current > known) throw new StoreVersionError(path, current, known);
    const pending = migrations.filter((step) => step.version > current).sort((a, b) => a.version - b.version);
    for (const step of pending) {
      db.exec(step.sql);
      step.transform?.(db);
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
