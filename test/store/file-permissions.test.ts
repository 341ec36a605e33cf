/**
 * The database file is owner-only: a file that group or others could open (an older lendbot's,
 * one copied in, a -wal or -shm left by a crash) is tightened at the next open, with a warning
 * that says so; a folder the user chose is left alone.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, openStore, MIGRATIONS } from '../../src/store/index.js';
import { spawnCli } from '../cli/run-cli.js';

let dir: string;
let umask: number;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lendbot-perm-'));
  // The usual umask, under which files are created 0644 and folders 0755 unless lendbot says otherwise.
  umask = process.umask(0o022);
});
afterEach(() => {
  process.umask(umask);
  rmSync(dir, { recursive: true, force: true });
});

const mode = (path: string) => statSync(path).mode & 0o777;
const tightened = (file: string, from: string) =>
  `${file} was open to other users (mode ${from}); tightened to 0600, owner only (see docs/store.md)`;

/** A database file as an older lendbot (or a copy with the umask's 0644) left it. */
function sharedDatabase(path: string): void {
  openStore(path).close();
  chmodSync(path, 0o644);
}

describe('database file permissions', () => {
  it('tightens a file, -wal and -shm that others could read, and says so', () => {
    const chosen = join(dir, 'volume');
    mkdirSync(chosen);
    chmodSync(chosen, 0o755);
    const path = join(chosen, 'lendbot.db');
    sharedDatabase(path);
    // What a crash leaves beside the file: SQLite recovers from an empty -wal and -shm.
    for (const sibling of [`${path}-wal`, `${path}-shm`]) {
      writeFileSync(sibling, '');
      chmodSync(sibling, 0o664);
    }

    const warnings: string[] = [];
    const db = openDatabase(path, MIGRATIONS, { onWarning: (message) => warnings.push(message) });
    db.prepare("INSERT INTO state (key, value, updated_at) VALUES ('k', 'v', '2026-01-01T00:00:00.000Z')").run();
    expect(warnings).toEqual([tightened(path, '0644'), tightened(`${path}-wal`, '0664'), tightened(`${path}-shm`, '0664')]);
    expect([mode(path), mode(`${path}-wal`), mode(`${path}-shm`)]).toEqual([0o600, 0o600, 0o600]);
    expect(mode(chosen)).toBe(0o755);
    db.close();

    const again: string[] = [];
    openDatabase(path, MIGRATIONS, { onWarning: (message) => again.push(message) }).close();
    expect(again).toEqual([]);
  });

  it('creates the folders it needs 0700 and the file, -wal and -shm 0600 under a umask of 022', () => {
    const path = join(dir, 'a', 'b', 'lendbot.db');
    const warnings: string[] = [];
    const db = openDatabase(path, MIGRATIONS, { onWarning: (message) => warnings.push(message) });
    db.prepare("INSERT INTO state (key, value, updated_at) VALUES ('k', 'v', '2026-01-01T00:00:00.000Z')").run();
    expect([mode(join(dir, 'a')), mode(join(dir, 'a', 'b'))]).toEqual([0o700, 0o700]);
    expect([mode(path), mode(`${path}-wal`), mode(`${path}-shm`)]).toEqual([0o600, 0o600, 0o600]);
    db.close();
    expect(warnings).toEqual([]);
  });

  it(
    'a lendbot command that writes warns on stderr when it tightens the file; one that only reads leaves the mode',
    { timeout: 60_000 },
    async () => {
      const path = join(dir, 'lendbot.db');
      sharedDatabase(path);
      const read = await spawnCli(['decisions', '--db', path, '--json']);
      expect(read).toEqual({ code: 0, stdout: '', stderr: '' });
      expect(mode(path)).toBe(0o644);
      const result = await spawnCli(['resume', '--db', path]);
      // The read left the -wal and -shm SQLite reads through, with the file's mode: tightened too.
      expect(result.code).toBe(0);
      expect(result.stderr.split('\n')[0]).toBe(`warning: ${tightened(path, '0644')}`);
      expect(mode(path)).toBe(0o600);
    },
  );

  it("refuses a path that is a folder, a device or somebody else's file, and changes nothing there", async () => {
    const folder = join(dir, 'shared-folder');
    mkdirSync(folder);
    chmodSync(folder, 0o1777);
    const textFile = join(dir, 'notes.txt');
    writeFileSync(textFile, 'not a database\n');
    chmodSync(textFile, 0o644);
    const cases: Array<[string, string]> = [
      [folder, 'a directory'],
      ['/dev/null', 'a device'],
      [textFile, 'a file that is not an SQLite database'],
    ];
    for (const [path, what] of cases) {
      expect(() => openDatabase(path)).toThrow(`database path ${path} is ${what}, not a database file; nothing was changed there`);
    }
    expect(mode(folder)).toBe(0o777);
    expect(statSync(folder).mode & 0o1000).toBe(0o1000);
    expect(mode(textFile)).toBe(0o644);
    expect(statSync('/dev/null').mode & 0o777).toBe(0o666);

    // Through the CLI: a configuration error in one line, exit 1, never "this is a bug".
    const result = await spawnCli(['decisions', '--db', folder, '--json']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `lendbot: database path ${folder} is a directory, not a database file; nothing was changed there (point LENDBOT_DB (or --db) at a file: a new name lendbot creates, or a database lendbot made)\n`,
    );
    expect(mode(folder)).toBe(0o777);
  });
});
