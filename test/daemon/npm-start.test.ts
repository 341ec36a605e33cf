/**
 * What a new user sees: `npm start` (`lendbot run --sandbox`: the simulation only because it is
 * asked for, never as a fallback for missing credentials) trades against the embedded sandbox
 * and reaches its first offer; SIGTERM stops it cleanly; the decisions and the recording can be
 * read back with the CLI.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { parseRecordingLine } from '../../src/recording/index.js';
import { freePort } from '../../src/daemon/free-port.js';
import { openStore } from '../../src/store/index.js';
import { BIN, cleanEnv, runCli } from '../cli/run-cli.js';
import { waitFor } from './daemon-harness.js';
import { storedReasons } from '../../src/store/reason-texts-to-values.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'lendbot-start-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('npm start on a fresh machine', () => {
  it('is lendbot run --sandbox, which the test below runs', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    // With a small young generation (docs/operations.md), after compiling dist/ if it is stale.
    expect(manifest.scripts.start).toBe('node --max-semi-space-size=2 bin/lendbot.js run --sandbox');
    expect(manifest.scripts.prestart).toBe('node bin/build-dist.js --if-stale');
  });

  it('reaches its first offer in sandbox mode and stops on SIGTERM', { timeout: 120_000 }, async () => {
    const db = join(dir, 'lendbot.db');
    const env = {
      ...cleanEnv(),
      LENDBOT_DB: db,
      LENDBOT_WEBHOOK_PORT: String(await freePort()),
      LENDBOT_OPS_PORT: String(await freePort()),
    };
    const child = spawn(process.execPath, [BIN, 'run', '--sandbox'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));

    await waitFor(
      () => stdout.includes('"msg":"offer placed"') && stdout.includes('"msg":"webhook received"'),
      `the first offer and webhook\n${stdout.slice(-2000)}\n${stderr}`,
      90_000,
    );
    expect(stdout).toContain('SANDBOX MODE (--sandbox or LENDBOT_SANDBOX=true)');
    child.kill('SIGTERM');
    // The daemon must exit within its 10 s grace period; 'hung' means it did not.
    const code = await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve('hung'), 20_000))]);
    expect(code, stdout.slice(-2000) + stderr).toBe(0);
    expect(stdout).toContain('"msg":"lendbot stopped"');
    expect(stderr).toContain('lendbot: SIGTERM; stopping');
    // Stopped while busy (webhooks arrive many a second), yet nothing is lost: every request seen
    // has its decision, and the events not decided stay stored, unprocessed, for the next start
    // (a stop decides nothing new: test/daemon/sigterm-backlog.test.ts).
    const file = new Database(db, { readonly: true });
    try {
      expect(
        file.prepare('SELECT count(*) AS n FROM requests_seen WHERE loan_request_id NOT IN (SELECT loan_request_id FROM decisions)').get(),
      ).toEqual({ n: 0 });
      expect((file.prepare('SELECT count(*) AS n FROM webhook_inbox').get() as { n: number }).n).toBeGreaterThan(0);
    } finally {
      file.close();
    }

    const decisions = await runCli(['decisions', '--db', db, '--action', 'offer', '--json'], {});
    expect(decisions.code).toBe(0);
    const offers = decisions.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(offers.length).toBeGreaterThan(0);
    expect(Object.keys(offers[0]!)).toEqual(expect.arrayContaining(['loan_request_id', 'action', 'rate', 'strategy', 'reasons']));
    expect(offers.every((offer) => offer.action === 'offer' && typeof offer.rate === 'number')).toBe(true);

    const out = join(dir, 'recording.jsonl');
    const exported = await runCli(['record', 'export', '--db', db, '--out', out], {});
    expect(exported.code).toBe(0);
    expect(exported.stderr).toMatch(/^wrote \d+ requests to /);
    const lines = readFileSync(out, 'utf8').trim().split('\n');
    expect(lines.length).toBeGreaterThan(offers.length);
    expect(lines.every((line) => parseRecordingLine(line).ok)).toBe(true);
  });

  it('refuses to read a database that does not exist', async () => {
    const result = await runCli(['decisions', '--db', join(dir, 'nope.db')], {});
    expect(result).toMatchObject({ code: 1, stderr: `lendbot: no database at ${join(dir, 'nope.db')} (set --db or LENDBOT_DB)\n` });
  });

  it('will not run the sandbox on a database that holds an earlier run', async () => {
    const used = join(dir, 'used.db');
    const store = openStore(used);
    store.decisions.record({ loanRequestId: 1001, action: 'skip', reasons: storedReasons(['earlier run']), dryRun: false, decidedAtMs: 0 });
    store.close();
    const result = await runCli(['run', '--sandbox'], { LENDBOT_DB: used, LENDBOT_WEBHOOK_PORT: String(await freePort()) });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `lendbot: ${used} holds decisions from another run, but the sandbox market starts afresh each time and its request ids would collide; point LENDBOT_DB (or --db) at a new file, or drop --sandbox (and LENDBOT_SANDBOX) and set LENDBOT_BASE_URL to trade for real\n`,
    );
  });
});
