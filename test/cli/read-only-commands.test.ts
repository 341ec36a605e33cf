/**
 * Issue 37, item 2: a command that only reads must never write. `lendbot ledger export --db` on
 * another program's SQLite file added lendbot's tables, changed its schema version, chmod-ed it
 * to 0600 and exited 0; an empty file became a lendbot database; a truncated one crashed with a
 * stack trace after the chmod. Every reading command now opens the file read-only and refuses
 * what is not lendbot's database at this build's version, with a one-line error of the catalogue,
 * and leaves the file byte-identical, mode included.
 */
import { createHash } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LATEST_VERSION, MIGRATIONS, openDatabase, openStore } from '../../src/store/index.js';
import { recordingLine, writeRecording } from '../backtest/recording-fixtures.js';
import { OFFER_ALL } from '../daemon/daemon-harness.js';
import { runCli } from './run-cli.js';

let dir: string;
let recording: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lendbot-read-only-'));
  recording = join(dir, 'rec.jsonl');
  await writeRecording(recording, [recordingLine({ id: 7, seenAt: '2026-03-01T00:00:00Z' })]);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every command that only reads the database, with `--db` pointing at `db`. */
const COMMANDS: ReadonlyArray<readonly [string, (db: string) => string[]]> = [
  ['status', (db) => ['status', '--db', db]],
  ['decisions', (db) => ['decisions', '--db', db]],
  ['ledger export', (db) => ['ledger', 'export', '--db', db]],
  ['record export', (db) => ['record', 'export', '--db', db, '--out', join(dir, 'out.jsonl')]],
  ['shadow report', (db) => ['shadow', 'report', '--db', db]],
  ['backtest --db', (db) => ['backtest', '--db', db, '--strategy', OFFER_ALL]],
  ['strategy explain --db', (db) => ['strategy', 'explain', OFFER_ALL, '--recording', recording, '--id', '7', '--db', db]],
  ['webhook test --db', (db) => ['webhook', 'test', '--url', 'http://127.0.0.1:9/webhooks', '--loan-request-id', '7', '--db', db]],
];

/** A fresh folder for each file, so any file SQLite created beside it would show. */
function place(name: string): string {
  return join(mkdtempSync(join(dir, 'case-')), name);
}

/** Another program's SQLite file: its own table, a schema version of its own, open to the group. */
function foreignDatabase(version: number): string {
  const path = place(`foreign-v${version}.sqlite`);
  const db = new BetterSqlite3(path);
  db.exec("CREATE TABLE bookmarks (id INTEGER PRIMARY KEY, url TEXT); INSERT INTO bookmarks (url) VALUES ('https://example.com')");
  db.pragma(`user_version = ${version}`);
  db.close();
  return path;
}

function emptyFile(): string {
  const path = place('empty.db');
  writeFileSync(path, '');
  return path;
}

/** lendbot's database with some rows, then cut to half its size (a copy interrupted). */
function truncatedLendbotDatabase(): string {
  const whole = place('whole.db');
  const store = openStore(whole, { onWarning: () => undefined });
  for (let i = 0; i < 2000; i++) store.state.set(`key-${i}`, 'x'.repeat(200), 0);
  store.close();
  const path = place('truncated.db');
  copyFileSync(whole, path);
  truncateSync(path, Math.floor(statSync(whole).size / 2));
  return path;
}

/** lendbot's database at schema version 12, as an older lendbot left it. */
function olderLendbotDatabase(): string {
  const path = place('older.db');
  openDatabase(
    path,
    MIGRATIONS.filter((step) => step.version <= 12),
    { onWarning: () => undefined },
  ).close();
  return path;
}

/** lendbot's database as a newer lendbot left it (a schema version this build does not know). */
function newerLendbotDatabase(): string {
  const path = place('newer.db');
  const db = openDatabase(path, MIGRATIONS, { onWarning: () => undefined });
  db.pragma(`user_version = ${LATEST_VERSION + 1}`);
  db.close();
  return path;
}

interface Case {
  name: string;
  make: () => string;
  message: (path: string) => string;
}

const CASES: Case[] = [
  {
    name: "another program's SQLite file (schema version 5)",
    make: () => foreignDatabase(5),
    message: (path) =>
      `lendbot: ${path} is an SQLite database of another program (no requests_seen, decisions, offers, state table), not a lendbot database; nothing was changed there: point --db (or LENDBOT_DB) at lendbot's database`,
  },
  {
    name: "another program's SQLite file (schema version 0)",
    make: () => foreignDatabase(0),
    message: (path) =>
      `lendbot: ${path} is an SQLite database of another program, not a lendbot database; nothing was changed there: point --db (or LENDBOT_DB) at lendbot's database`,
  },
  {
    name: 'an empty file',
    make: emptyFile,
    message: (path) =>
      `lendbot: ${path} is an empty file, not a lendbot database; nothing was changed there: point --db (or LENDBOT_DB) at lendbot's database`,
  },
  {
    name: 'a truncated lendbot database',
    make: truncatedLendbotDatabase,
    message: (path) =>
      expect.stringMatching(
        new RegExp(
          `^lendbot: database ${escape(path)} cannot be read \\(truncated: \\d+ bytes where its header counts \\d+\\); nothing was changed there: restore it from a backup$`,
        ),
      ) as unknown as string,
  },
  {
    name: 'a lendbot database of an older schema',
    make: olderLendbotDatabase,
    message: (path) =>
      `lendbot: database ${path} has schema version 12, older than ${LATEST_VERSION} this lendbot reads; run lendbot run once to upgrade it (a command that only reads never changes the file)`,
  },
  {
    name: 'a lendbot database of a newer schema',
    make: newerLendbotDatabase,
    message: (path) =>
      `lendbot: database ${path} has schema version ${LATEST_VERSION + 1}, newer than ${LATEST_VERSION} known to this lendbot: upgrade lendbot, or point LENDBOT_DB (--db) at another file`,
  },
];

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The file's bytes, its mode and the files beside it. SQLite reads a database in write-ahead-log
 * mode (lendbot's own) through a -wal and a -shm file, which it creates, empty, when no process
 * has them open: those are left out, once the -wal is seen to be empty.
 */
function fingerprint(path: string): { sha256: string; mode: string; beside: string[] } {
  const folder = join(path, '..');
  const wal = `${path}-wal`;
  if (existsSync(wal)) expect(statSync(wal).size).toBe(0);
  return {
    sha256: createHash('sha256').update(readFileSync(path)).digest('hex'),
    mode: (statSync(path).mode & 0o777).toString(8),
    beside: readdirSync(folder).filter((name) => !name.endsWith('-wal') && !name.endsWith('-shm')),
  };
}

describe('a command that only reads leaves a file that is not its database as it was', () => {
  for (const testCase of CASES) {
    describe(testCase.name, () => {
      for (const [name, args] of COMMANDS) {
        it(`${name}: exit 1, one line, the file byte-identical and still mode 0640`, async () => {
          const path = testCase.make();
          chmodSync(path, 0o640);
          const before = fingerprint(path);

          const result = await runCli(args(path), { LENDBOT_WEBHOOK_SECRET: 'read-only-test-secret' });

          expect(result.code).toBe(1);
          expect(result.stderr.trimEnd().split('\n').at(-1)).toEqual(testCase.message(path));
          expect(result.stderr).not.toMatch(/this is a bug|\n\s+at /);
          expect(fingerprint(path)).toEqual(before);
        });
      }
    });
  }
});

describe('lendbot doctor on the same files', () => {
  const expectations: Array<[string, () => string, string]> = [
    ["another program's SQLite file", () => foreignDatabase(5), 'FAIL'],
    ['an empty file', emptyFile, 'warn'],
    ['a truncated lendbot database', truncatedLendbotDatabase, 'FAIL'],
    ['a lendbot database of an older schema', olderLendbotDatabase, 'warn'],
  ];
  for (const [name, make, status] of expectations) {
    it(`${name}: the database line says ${status}, and the file is left as it was`, async () => {
      const path = make();
      chmodSync(path, 0o640);
      const before = fingerprint(path);
      const result = await runCli(['doctor', '--db', path], { LENDBOT_BASE_URL: 'http://127.0.0.1:9' });
      const line = result.stdout.split('\n').find((text) => /^\S+\s+database\s/.test(text)) ?? result.stdout + result.stderr;
      expect(line.startsWith(`${status} `)).toBe(true);
      expect(fingerprint(path)).toEqual(before);
    });
  }
});

describe("a command that writes refuses another program's database too, before changing anything", () => {
  const WRITERS: ReadonlyArray<readonly [string, (db: string) => string[]]> = [
    ['resume', (db) => ['resume', '--db', db]],
    ['approve', (db) => ['approve', '--db', db]],
  ];
  for (const [name, args] of WRITERS) {
    it(`${name}: exit 1, one line, the file byte-identical and still mode 0640`, async () => {
      const path = foreignDatabase(5);
      chmodSync(path, 0o640);
      const before = fingerprint(path);
      const result = await runCli(args(path));
      expect(result.code).toBe(1);
      expect(result.stderr.trimEnd().split('\n').at(-1)).toBe(
        `lendbot: ${path} is an SQLite database of another program (no requests_seen, decisions, offers, state table), not a lendbot database; nothing was changed there: point --db (or LENDBOT_DB) at lendbot's database`,
      );
      expect(fingerprint(path)).toEqual(before);
    });
  }

  it('resume: a truncated lendbot database is one line, not a stack trace, and is not chmod-ed', async () => {
    const path = truncatedLendbotDatabase();
    chmodSync(path, 0o640);
    const before = fingerprint(path);
    const result = await runCli(['resume', '--db', path]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^lendbot: database .* cannot be read \(database disk image is malformed\); nothing was changed there/m);
    expect(result.stderr).not.toMatch(/this is a bug|\n\s+at /);
    expect(fingerprint(path)).toEqual(before);
  });
});
