/**
 * After `npm start` (lendbot run --sandbox, which writes data/sandbox.db), plain `lendbot status`,
 * `lendbot decisions` and `lendbot record export` read the sandbox run's database when data/lendbot.db is absent, and say
 * so on stderr. The real binary runs in a temp directory as its working directory.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import { tempDir } from '../store/fixtures.js';
import { BIN, cleanEnv, runCli, type CliResult } from './run-cli.js';
import { storedReasons } from '../../src/store/reason-texts-to-values.js';

let dir: string;
let cleanup: () => void;
beforeEach(() => {
  ({ dir, cleanup } = tempDir());
});
afterEach(() => cleanup());

function spawnIn(cwd: string, args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { cwd, env: { ...cleanEnv(), ...env }, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

function sandboxDatabase(): void {
  mkdirSync(join(dir, 'data'));
  const store = openStore(join(dir, 'data', 'sandbox.db'));
  store.decisions.record({
    loanRequestId: 1001,
    action: 'skip',
    reasons: storedReasons(['filter credit_score < 600']),
    dryRun: false,
    decidedAtMs: Date.now(),
  });
  store.close();
}

const NOTE = "note: no database at data/lendbot.db; reading data/sandbox.db, the sandbox run's (npm start); pass --db to choose\n";

describe('reading the database npm start wrote', () => {
  it('status and decisions fall back to data/sandbox.db, with one line on stderr', { timeout: 90_000 }, async () => {
    sandboxDatabase();
    const [decisions, status] = await Promise.all([spawnIn(dir, ['decisions', '--json']), spawnIn(dir, ['status', '--json'])]);
    expect(decisions).toMatchObject({ code: 0, stderr: NOTE });
    expect(JSON.parse(decisions.stdout)).toMatchObject({ loan_request_id: 1001, action: 'skip', outcome: 'skipped' });
    // The note comes first (status may go on to warn about strategy files it cannot load here).
    expect(status.code).toBe(0);
    expect(status.stderr.startsWith(NOTE)).toBe(true);
    expect(JSON.parse(status.stdout)).toMatchObject({ scope: 'live' });
  });

  it("record export reads it too, so the README's export of an npm start run needs no --db", { timeout: 60_000 }, async () => {
    sandboxDatabase();
    const result = await spawnIn(dir, ['record', 'export', '--out', 'run.jsonl']);
    // The fixture database holds a decision but no request seen: an empty recording, from it.
    expect(result).toMatchObject({ code: 0, stderr: `${NOTE}wrote 0 requests to run.jsonl\n` });
    expect(readFileSync(join(dir, 'run.jsonl'), 'utf8')).toBe('');
  });

  it('says which database is missing when there is neither', { timeout: 60_000 }, async () => {
    const result = await spawnIn(dir, ['decisions']);
    expect(result).toEqual({ code: 1, stdout: '', stderr: 'lendbot: no database at data/lendbot.db (set --db or LENDBOT_DB)\n' });
  });

  it('never falls back from a database the user named', async () => {
    sandboxDatabase();
    const config = join(dir, 'lendbot.yaml');
    writeFileSync(config, 'log_level: info\n');
    const named = join(dir, 'data', 'lendbot.db');
    const result = await runCli(['decisions', '--db', named, '--config', config]);
    expect(result).toEqual({ code: 1, stdout: '', stderr: `lendbot: no database at ${named} (set --db or LENDBOT_DB)\n` });
    const byEnv = await runCli(['status', '--config', config], { LENDBOT_DB: join(dir, 'other.db') });
    expect(byEnv).toEqual({ code: 1, stdout: '', stderr: `lendbot: no database at ${join(dir, 'other.db')} (set --db or LENDBOT_DB)\n` });
  });
});
