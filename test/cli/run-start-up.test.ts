/**
 * Fail fast at start, degrade later (issue 28, item 2), end to end: the real `lendbot run`,
 * spawned, against a fixture marketplace (test/service/fixture-server.ts). A misconfiguration
 * ends start-up with one line on stderr and exit code 1 before any port is bound; a refusal
 * that begins after a successful start leaves the daemon running, degraded.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../../src/daemon/free-port.js';
import { storedReasons } from '../../src/store/reason-texts-to-values.js';
import { fileHoldsDecisions, openStore } from '../../src/store/index.js';
import { waitFor } from '../daemon/daemon-harness.js';
import { startFixtureServer, type FixtureServer } from '../service/fixture-server.js';
import { BIN, cleanEnv, spawnCli } from './run-cli.js';

const API_KEY = 'start-key';
const SECRET_KEY = 'start-secret';
const EMPTY_PAGE = { count: 0, next: null, previous: null, results: [] };
const dir = mkdtempSync(join(tmpdir(), 'lendbot-start-up-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function market(): Promise<FixtureServer> {
  const server = await startFixtureServer({ apiKey: API_KEY, secretKey: SECRET_KEY });
  server.route('GET /api/v3/transfer_history/', () => ({ status: 200, body: EMPTY_PAGE }));
  cleanups.push(() => server.close());
  return server;
}

async function liveEnv(baseUrl: string, overrides: Record<string, string> = {}): Promise<Record<string, string>> {
  return {
    LENDBOT_BASE_URL: baseUrl,
    LENDBOT_API_KEY: API_KEY,
    LENDBOT_SECRET_KEY: SECRET_KEY,
    LENDBOT_WEBHOOK_SECRET: 'start-webhook-secret',
    LENDBOT_DB: join(dir, `lendbot-${Math.random().toString(36).slice(2)}.db`),
    LENDBOT_WEBHOOK_PORT: String(await freePort()),
    LENDBOT_OPS_PORT: String(await freePort()),
    ...overrides,
  };
}

/** A port held by another program for the test's length. */
async function holdPort(): Promise<number> {
  const port = await freePort();
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(port, '0.0.0.0', resolve));
  cleanups.push(() => new Promise((resolve) => server.close(() => resolve())));
  return port;
}

/** Whether nothing listens on `port` now (we can bind it ourselves). */
async function portFree(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '0.0.0.0', () => server.close(() => resolve(true)));
  });
}

function oneLine(stderr: string): string {
  const lines = stderr.trimEnd().split('\n');
  expect(lines, stderr).toHaveLength(1);
  return lines[0] ?? '';
}

describe('lendbot run: fail fast at start', () => {
  it('ends with one line naming LENDBOT_API_KEY when the key is refused, before binding a port', { timeout: 60_000 }, async () => {
    const server = await market();
    const env = await liveEnv(server.url, { LENDBOT_API_KEY: 'not-the-key' });
    const result = await spawnCli(['run', '--dry-run'], env);
    expect(result.code, result.stdout + result.stderr).toBe(1);
    expect(oneLine(result.stderr)).toMatch(
      /^lendbot: the marketplace refused lendbot's credentials at start: .*Invalid API Key \[AUTH_INVALID_API_KEY\] \(check LENDBOT_API_KEY/,
    );
    expect(result.stdout).not.toContain('lendbot started');
    // One signed read, and nothing bound: fastify logs every listener it starts.
    expect(server.requests.map((request) => request.path)).toEqual(['/api/v3/transfer_history/']);
    expect(result.stdout).not.toContain('Server listening');
    expect(await portFree(Number(env.LENDBOT_WEBHOOK_PORT))).toBe(true);
    expect(await portFree(Number(env.LENDBOT_OPS_PORT))).toBe(true);
    // No empty database left behind: status and decisions keep finding the sandbox run's.
    expect(existsSync(env.LENDBOT_DB ?? '')).toBe(false);
  });

  it('keeps a database that was there before a refused start, with what it holds', { timeout: 60_000 }, async () => {
    const server = await market();
    const env = await liveEnv(server.url, { LENDBOT_API_KEY: 'not-the-key' });
    const db = env.LENDBOT_DB ?? '';
    const store = openStore(db);
    store.decisions.record({ loanRequestId: 7, action: 'skip', reasons: storedReasons(['test']), dryRun: false, decidedAtMs: 0 });
    store.close();
    const result = await spawnCli(['run'], env);
    expect(result.code, result.stdout + result.stderr).toBe(1);
    expect(fileHoldsDecisions(db)).toBe(true);
  });

  it(
    'ends with one line naming LENDBOT_BASE_URL when the host does not resolve, after the bounded tries',
    { timeout: 60_000 },
    async () => {
      const env = await liveEnv('https://lendbot-start-up.invalid', { LENDBOT_READ_RETRIES: '2' });
      const result = await spawnCli(['run'], env);
      expect(result.code, result.stdout + result.stderr).toBe(1);
      // ENOTFOUND, or EAI_AGAIN where the machine has no resolver at all.
      expect(oneLine(result.stderr)).toMatch(
        /^lendbot: cannot reach the marketplace at https:\/\/lendbot-start-up\.invalid \((ENOTFOUND|EAI_AGAIN), 3 tries\): check LENDBOT_BASE_URL and the network$/,
      );
      expect(result.stdout).not.toContain('lendbot started');
      expect(result.stdout).not.toContain('Server listening');
      // The tries are the client's, with its back-off: two retries were logged before giving up.
      expect(result.stdout.match(/"msg":"[^"]*retry[^"]*"/gi) ?? [], result.stdout).toHaveLength(2);
    },
  );

  it.each([
    {
      what: 'the operator listener',
      variable: 'LENDBOT_OPS_PORT',
      host: '127.0.0.1',
      setting: 'ops.port or LENDBOT_OPS_PORT',
      other: 'LENDBOT_WEBHOOK_PORT',
    },
    {
      what: 'the webhook listener',
      variable: 'LENDBOT_WEBHOOK_PORT',
      host: '0.0.0.0',
      setting: 'webhook.port or LENDBOT_WEBHOOK_PORT',
      other: 'LENDBOT_OPS_PORT',
    },
  ])(
    'ends with one line naming the port and $setting when $what cannot have it',
    { timeout: 60_000 },
    async ({ what, variable, host, setting, other }) => {
      const server = await market();
      const held = await holdPort();
      const env = await liveEnv(server.url, { [variable]: String(held) });
      const result = await spawnCli(['run', '--dry-run'], env);
      expect(result.code, result.stdout + result.stderr).toBe(1);
      expect(oneLine(result.stderr)).toBe(
        `lendbot: port ${held} (${what}, ${host}) is in use by another program: stop it or set ${setting} to another port`,
      );
      expect(result.stdout).not.toContain('lendbot started');
      // Nothing ran: the one signed read of the start-up check and no job's call.
      expect(server.requests).toHaveLength(1);
      expect(await portFree(Number(env[other]))).toBe(true);
    },
  );
});

describe('lendbot run: degrade later', () => {
  it(
    'keeps running, degraded (/healthz 503), when refusals begin after a successful start, with no stack trace',
    { timeout: 60_000 },
    async () => {
      const server = await market();
      // The start-up check's read is accepted; from then on the key is refused on every call.
      let accepted = 0;
      const refused = { status: 403, body: { detail: 'Invalid API Key' } };
      for (const path of [
        'transfer_history',
        'loan_requests',
        'loans/current_loan',
        'loans/completed_loan',
        'loans/collection_loan',
        'loans/default_loan',
      ]) {
        server.route(`GET /api/v3/${path}/`, () =>
          path === 'transfer_history' && accepted++ === 0 ? { status: 200, body: EMPTY_PAGE } : refused,
        );
      }
      const env = await liveEnv(server.url);
      const child = spawn(process.execPath, [BIN, 'run', '--dry-run'], {
        env: { ...cleanEnv(), ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      cleanups.push(async () => {
        if (child.exitCode === null) child.kill('SIGKILL');
        await exited;
      });

      await waitFor(() => stdout.includes('the daemon is degraded'), `the degraded line\n${stdout.slice(-3000)}\n${stderr}`, 30_000);
      expect(stdout).toContain('lendbot started');
      expect(child.exitCode).toBeNull();
      const health = await fetch(`http://127.0.0.1:${env.LENDBOT_WEBHOOK_PORT}/healthz`);
      expect(health.status).toBe(503);
      // The refusal is an expected error: logged with its code and message, never a stack.
      await waitFor(() => stdout.includes('"msg":"job failed'), `a failed job's line\n${stdout.slice(-3000)}`, 30_000);
      expect(stdout).toContain('AUTH_INVALID_API_KEY');
      expect(stdout).not.toMatch(/\\n\s+at /);

      child.kill('SIGTERM');
      expect(await exited, stdout.slice(-2000) + stderr).toBe(0);
    },
  );
});
