/**
 * Whether a file is lendbot's database, at a version this build reads, told without changing it.
 * A command that only reads (`lendbot status`, `ledger export`, ...) must never turn another
 * program's SQLite file, an empty file or an old database into something else: opening one for
 * writing (journal mode, migrations, chmod) did exactly that (issue 37, item 2).
 *
 * The header (the first 100 bytes, spec: sqlite.org/fileformat.html) answers most cases without
 * opening the file: empty, not SQLite, truncated, another program's (an application id, or schema
 * version 0 with no write-ahead log beside it). The rest is read through a read-only connection:
 * lendbot's tables must be there and the schema version must be this build's.
 */
import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import BetterSqlite3 from 'better-sqlite3';
import { AppError } from '../domain/index.js';
import { BUSY_TIMEOUT_MS, databaseFileProblem, schemaVersion, StorePathError, StoreVersionError, type Database } from './database.js';
import { LATEST_VERSION } from './migrations.js';

/** Tables every lendbot database has had since its first schema version. */
const LENDBOT_TABLES = ['requests_seen', 'decisions', 'offers', 'state'] as const;

const HEADER_BYTES = 100;

/** The file is not lendbot's database (another program's SQLite file, an empty file). */
class StoreNotLendbotsError extends AppError {
  override readonly name = 'StoreNotLendbotsError';
  readonly code = 'STORE_NOT_LENDBOT';

  constructor(path: string, what: string) {
    super(`${path} is ${what}, not a lendbot database; nothing was changed there: point --db (or LENDBOT_DB) at lendbot's database`);
  }
}

/** lendbot's database at an older schema version: a command that only reads does not upgrade it. */
export class StoreNeedsUpgradeError extends AppError {
  override readonly name = 'StoreNeedsUpgradeError';
  readonly code = 'STORE_NEEDS_UPGRADE';

  constructor(
    path: string,
    readonly fileVersion: number,
  ) {
    super(
      `database ${path} has schema version ${fileVersion}, older than ${LATEST_VERSION} this lendbot reads; ` +
        'run lendbot run once to upgrade it (a command that only reads never changes the file)',
    );
  }
}

/** The file cannot be read as a database: truncated, or its pages are damaged. */
class StoreUnreadableError extends AppError {
  override readonly name = 'StoreUnreadableError';
  readonly code = 'STORE_UNREADABLE';

  constructor(path: string, why: string) {
    super(`database ${path} cannot be read (${why}); nothing was changed there: restore it from a backup`);
  }
}

/** What the first 100 bytes say, when the file has them. */
interface Header {
  pageSize: number;
  pages: number | undefined;
  version: number;
  applicationId: number;
}

function readHeader(path: string, size: number): Header | undefined {
  if (size < HEADER_BYTES) return undefined;
  // The first 100 bytes only: a database may be hundreds of megabytes.
  const bytes = Buffer.alloc(HEADER_BYTES);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, bytes, 0, HEADER_BYTES, 0);
  } finally {
    closeSync(fd);
  }
  const rawPageSize = bytes.readUInt16BE(16);
  // "In-header database size" is valid only when its version-valid-for number matches the change counter.
  const pagesValid = bytes.readUInt32BE(92) === bytes.readUInt32BE(24) && bytes.readUInt32BE(28) > 0;
  return {
    pageSize: rawPageSize === 1 ? 65_536 : rawPageSize,
    pages: pagesValid ? bytes.readUInt32BE(28) : undefined,
    version: bytes.readInt32BE(60),
    applicationId: bytes.readInt32BE(68),
  };
}

/**
 * Refuses, before any connection is opened, what the file system and the header already tell:
 * something that is not a database file, an empty file, a truncated database, another program's.
 */
function refuseByHeader(path: string): void {
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    const problem = databaseFileProblem(file);
    if (problem !== undefined) throw new StorePathError(file, problem);
  }
  const size = statSync(path).size;
  if (size === 0) throw new StoreNotLendbotsError(path, 'an empty file');
  const header = readHeader(path, size);
  if (header === undefined) throw new StoreUnreadableError(path, `truncated: ${size} bytes, shorter than an SQLite header`);
  // Only with no write-ahead log beside it: a daemon's checkpoint may write page 1 before the
  // pages that grow the file, and SQLite's own read (under its locks) tells a damaged file then.
  const quiet = !existsSync(`${path}-wal`);
  if (quiet && header.pages !== undefined && size < header.pages * header.pageSize)
    throw new StoreUnreadableError(path, `truncated: ${size} bytes where its header counts ${header.pages * header.pageSize}`);
  if (header.applicationId !== 0)
    throw new StoreNotLendbotsError(path, `an SQLite database of another program (application id ${header.applicationId})`);
  // lendbot sets the version in the transaction that creates its tables: version 0 with no
  // write-ahead log still to apply is a database lendbot never wrote.
  if (header.version === 0 && !existsSync(`${path}-wal`)) throw new StoreNotLendbotsError(path, 'an SQLite database of another program');
}

/** Turns SQLite's complaint about a damaged file into the one-line error; anything else passes. */
export function unreadableOr(error: unknown, path: string): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (error instanceof BetterSqlite3.SqliteError && typeof code === 'string' && /^SQLITE_(CORRUPT|NOTADB|IOERR)/.test(code))
    return new StoreUnreadableError(path, error.message);
  return error;
}

/** Refuses a connection's file unless it holds lendbot's tables at this build's version. */
function refuseByContent(db: Database, path: string): void {
  const tables = tableNames(db);
  const missing = LENDBOT_TABLES.filter((table) => !tables.has(table));
  if (missing.length > 0) {
    const what =
      tables.size === 0 ? 'an SQLite database with no tables' : `an SQLite database of another program (no ${missing.join(', ')} table)`;
    throw new StoreNotLendbotsError(path, what);
  }
  const version = schemaVersion(db);
  if (version > LATEST_VERSION) throw new StoreVersionError(path, version, LATEST_VERSION);
  if (version < LATEST_VERSION) throw new StoreNeedsUpgradeError(path, version);
}

/**
 * For a command that writes (`lendbot run`, `resume`, `approve`, `mcp`): refuses an existing file
 * that holds another program's database, before anything is created, migrated or chmod-ed there.
 * An absent or empty file is one lendbot makes its own; a database with no tables too.
 */
export function refuseForeignDatabase(path: string): void {
  if (path === ':memory:' || path === '' || !existsSync(path)) return;
  const stats = statSync(path);
  if (!stats.isFile() || stats.size === 0) return; // not a file: the opening refuses it with its own words
  const header = readHeader(path, stats.size);
  if (header === undefined) return; // not SQLite, or too short: the opening refuses it with its own words
  if (header.applicationId !== 0)
    throw new StoreNotLendbotsError(path, `an SQLite database of another program (application id ${header.applicationId})`);
  let db: Database | undefined;
  try {
    db = new BetterSqlite3(path, { readonly: true, fileMustExist: true });
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    const tables = tableNames(db);
    const missing = LENDBOT_TABLES.filter((table) => !tables.has(table));
    if (tables.size > 0 && missing.length > 0)
      throw new StoreNotLendbotsError(path, `an SQLite database of another program (no ${missing.join(', ')} table)`);
  } catch (error) {
    throw unreadableOr(error, path);
  } finally {
    db?.close();
  }
}

function tableNames(db: Database): Set<string> {
  return new Set(
    db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
      .pluck()
      .all()
      .map((name) => String(name)),
  );
}

/**
 * Opens lendbot's database read-only (the file must exist), after checking it is lendbot's and at
 * this build's version. The file is never written, its mode never changed. SQLite may create the
 * empty `-wal` and `-shm` files a database in write-ahead-log mode is read through, as the daemon
 * does, when no process has them open.
 */
export function openDatabaseReadOnly(path: string): Database {
  refuseByHeader(path);
  let db: Database | undefined;
  try {
    db = new BetterSqlite3(path, { readonly: true, fileMustExist: true });
    // The daemon may be writing: wait for its lock rather than fail at once.
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    db.pragma('cache_size = -2000');
    refuseByContent(db, path);
    return db;
  } catch (error) {
    db?.close();
    throw unreadableOr(error, path);
  }
}
