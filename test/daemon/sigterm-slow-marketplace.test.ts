/**
 * Issue 37, item 7: SIGTERM while the marketplace was slow or silent hit the 10 s limit and exited
 * 1 (2 of 7 stops in a soak): the stop waited for the calls in flight, which waited up to their
 * 20 s timeout. Halfway through the grace period the calls still in flight are now abandoned: the
 * stop ends with exit 0 and the database closed, and an offer whose POST was in flight stays
 * `unknown`, its money reserved, to be reconciled after the restart.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../../src/daemon/free-port.js';
import { cleanEnv } from '../cli/run-cli.js';
import { startFixtureServer, type FixtureServer } from '../service/fixture-server.js';
import { loanRequestJson, transferGroupJson } from '../service/fixtures/resources.js';
import { queryDatabase, startChildDaemon, writeChildConfig, type ChildDaemon } from './child-daemon.js';
import { OFFER_ALL, waitFor } from './daemon-harness.js';

const API_KEY = 'slow-key';
const SECRET_KEY = 'slow-secret';
const SILENT_MS = 60_000;

const children: ChildProcess[] = [];
const servers: FixtureServer[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  for (const server of servers.splice(0)) await server.close();
});
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A marketplace that answers the balance and lists request 7; the rest is up to the test. */
async function marketplace(): Promise<FixtureServer> {
  const server = await startFixtureServer({ apiKey: API_KEY, secretKey: SECRET_KEY });
  servers.push(server);
  server.route('GET /api/v3/transfer_history/', () => ({
    status: 200,
    body: { count: 1, next: null, previous: null, results: [transferGroupJson('2026-11-01', [['processed', 'Deposit', '100000.00']])] },
  }));
  return server;
}

async function startDaemon(server: FixtureServer): Promise<{ daemon: ChildDaemon; db: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'lendbot-slow-stop-'));
  dirs.push(dir);
  const db = join(dir, 'lendbot.db');
  const configFile = join(dir, 'lendbot.yaml');
  writeChildConfig(configFile, { db, port: await freePort(), strategy: OFFER_ALL });
  const env = {
    ...cleanEnv(),
    LENDBOT_BASE_URL: server.url,
    LENDBOT_API_KEY: API_KEY,
    LENDBOT_SECRET_KEY: SECRET_KEY,
    LENDBOT_WEBHOOK_SECRET: 'slow-webhook-secret',
    // Longer than the grace period: only abandoning the call ends the stop in time.
    LENDBOT_HTTP_TIMEOUT_MS: String(SILENT_MS),
  };
  return { daemon: startChildDaemon(configFile, env, children), db };
}

const exitCode = (daemon: ChildDaemon): Promise<unknown> =>
  Promise.race([daemon.exited, new Promise((resolve) => setTimeout(() => resolve('hung'), 30_000))]);

describe('SIGTERM while the marketplace does not answer', () => {
  it('with a make_offer in flight: exits 0, the offer unknown and its money reserved', { timeout: 90_000 }, async () => {
    const server = await marketplace();
    server.route('GET /api/v3/loan_requests/', () => ({
      status: 200,
      body: { count: 1, next: null, previous: null, results: [loanRequestJson(7)] },
    }));
    server.route('POST /api/v3/loan_requests/7/make_offer/', () => ({ status: 201, body: {}, delayMs: SILENT_MS }));
    const { daemon, db } = await startDaemon(server);
    await waitFor(
      () => server.requests.some((request) => request.path === '/api/v3/loan_requests/7/make_offer/'),
      `the offer sent\n${daemon.output()}`,
      30_000,
    );

    daemon.child.kill('SIGTERM');
    expect(await exitCode(daemon), daemon.output().slice(-3000)).toBe(0);
    expect(daemon.output()).toContain('"msg":"lendbot stopped"');
    expect(daemon.output()).toContain('marketplace call(s) still in flight after 5000 ms; abandoned');
    expect(queryDatabase<{ state: string }>(db, 'SELECT state FROM offers WHERE loan_request_id = 7')).toEqual([{ state: 'unknown' }]);
    expect(server.requests.filter((request) => request.method === 'POST')).toHaveLength(1);
  });

  it('with a read of the list in flight: exits 0', { timeout: 90_000 }, async () => {
    const server = await marketplace();
    server.route('GET /api/v3/loan_requests/', () => ({
      status: 200,
      body: { count: 0, next: null, previous: null, results: [] },
      delayMs: SILENT_MS,
    }));
    const { daemon } = await startDaemon(server);
    await waitFor(
      () => server.requests.some((request) => request.path === '/api/v3/loan_requests/'),
      `the list asked for\n${daemon.output()}`,
      30_000,
    );

    daemon.child.kill('SIGTERM');
    expect(await exitCode(daemon), daemon.output().slice(-3000)).toBe(0);
    expect(daemon.output()).toContain('"msg":"lendbot stopped"');
  });
});
