/**
 * SIGTERM with a backlog (issue 24, item 12): the daemon stops starting new decisions, finishes
 * the one in flight, exits 0, and leaves the events it did not decide in the inbox for the next
 * start, which decides them. Before, stop() ran the inbox to its end: 44 more offers in one run,
 * until the 10 s deadline forced exit 1.
 */
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/daemon/free-port.js';
import { cleanEnv } from '../cli/run-cli.js';
import { startFixtureServer, type FixtureServer } from '../service/fixture-server.js';
import { loanRequestJson, offerJson, transferGroupJson } from '../service/fixtures/resources.js';
import { queryDatabase, startChildDaemon, writeChildConfig, type ChildDaemon } from './child-daemon.js';
import { OFFER_ALL, postWebhook, signEvent, waitFor } from './daemon-harness.js';
import { LIST, listPage, startPollFixture } from './poll-fixture.js';
import { LAST_POLL_KEY } from '../../src/store/index.js';

const API_KEY = 'sigterm-key';
const SECRET_KEY = 'sigterm-secret';
const WEBHOOK_SECRET = 'sigterm-webhook-secret';
const BACKLOG = 40;
const ids = Array.from({ length: BACKLOG }, (_, i) => i + 1);

let server: FixtureServer;
let dir: string;
let db: string;
let configFile: string;
let webhookUrl: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  server = await startFixtureServer({ apiKey: API_KEY, secretKey: SECRET_KEY });
  server.route('GET /api/v3/transfer_history/', () => ({
    status: 200,
    body: { count: 1, next: null, previous: null, results: [transferGroupJson('2026-11-01', [['processed', 'Deposit', '100000.00']])] },
  }));
  server.route('GET /api/v3/loan_requests/', () => ({
    status: 200,
    body: { count: BACKLOG, next: null, previous: null, results: ids.map((id) => loanRequestJson(id)) },
  }));
  for (const id of ids) {
    // Each offer takes a while, so a backlog builds behind it.
    server.route(`POST /api/v3/loan_requests/${id}/make_offer/`, (request) => {
      const body = request.body as { offered_interest: number; automate_fund: boolean };
      return { status: 201, body: offerJson(id, id, body.offered_interest, body.automate_fund), delayMs: 150 };
    });
  }
  dir = mkdtempSync(join(tmpdir(), 'lendbot-sigterm-'));
  db = join(dir, 'lendbot.db');
  const port = await freePort();
  webhookUrl = `http://127.0.0.1:${port}/webhooks`;
  configFile = join(dir, 'lendbot.yaml');
  writeChildConfig(configFile, { db, port, strategy: OFFER_ALL, pollAtStart: false });
});

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

function startDaemon(): ChildDaemon {
  const env = {
    ...cleanEnv(),
    LENDBOT_BASE_URL: server.url,
    LENDBOT_API_KEY: API_KEY,
    LENDBOT_SECRET_KEY: SECRET_KEY,
    LENDBOT_WEBHOOK_SECRET: WEBHOOK_SECRET,
    LENDBOT_READ_RETRIES: '0',
  };
  return startChildDaemon(configFile, env, children);
}

const offersPosted = (): number =>
  server.requests.filter((request) => request.method === 'POST' && request.path.endsWith('/make_offer/')).length;
const count = (sql: string): number => queryDatabase<{ n: number }>(db, sql)[0]?.n ?? 0;
const exitCode = (daemon: ChildDaemon): Promise<unknown> =>
  Promise.race([daemon.exited, new Promise((resolve) => setTimeout(() => resolve('hung'), 20_000))]);

describe('SIGTERM with a backlog of webhook events', () => {
  it(
    'finishes the decision in flight, starts no other, exits 0 and leaves the rest in the inbox for the next start',
    { timeout: 90_000 },
    async () => {
      const first = startDaemon();
      await waitFor(() => first.output().includes('"msg":"lendbot started"'), `the start\n${first.output()}`, 30_000);
      for (const id of ids) {
        const data = {
          loan_request_id: id,
          loan_request_amount: 500,
          loan_request_type: 'cash',
          has_banking_data: true,
          automated_loan_request: false,
        };
        const token = await signEvent(WEBHOOK_SECRET, { webhook_uuid: randomUUID(), topic: 'new_loan_request_created', data });
        expect(await postWebhook(webhookUrl, JSON.stringify({ token }))).toBe(200);
      }
      await waitFor(() => offersPosted() >= 3, `three offers\n${first.output()}`, 30_000);

      const postedAtSignal = offersPosted();
      first.child.kill('SIGTERM');
      expect(await exitCode(first), first.output().slice(-3000)).toBe(0);
      expect(first.output()).toContain('"msg":"lendbot stopped"');

      // At most the one decision in flight posted its offer after the signal.
      const postedAfter = offersPosted() - postedAtSignal;
      expect(postedAfter).toBeLessThanOrEqual(1);
      const posted = offersPosted();
      expect(count("SELECT count(*) AS n FROM offers WHERE state = 'placed'")).toBe(posted);
      expect(count("SELECT count(*) AS n FROM offers WHERE state <> 'placed'")).toBe(0);
      // Every event is in the inbox: those decided are processed, the others wait.
      expect(count('SELECT count(*) AS n FROM webhook_inbox')).toBe(BACKLOG);
      const waiting = count('SELECT count(*) AS n FROM webhook_inbox WHERE processed_at IS NULL');
      expect(waiting).toBe(BACKLOG - count('SELECT count(*) AS n FROM decisions'));
      expect(waiting).toBeGreaterThanOrEqual(BACKLOG - posted);
      expect(waiting).toBeGreaterThan(0);

      // The next start decides what was left, offering on each request once.
      const second = startDaemon();
      await waitFor(
        () => count('SELECT count(*) AS n FROM decisions') === BACKLOG,
        `the rest decided\n${second.output().slice(-3000)}`,
        60_000,
      );
      await waitFor(() => count('SELECT count(*) AS n FROM webhook_inbox WHERE processed_at IS NULL') === 0, 'the inbox drained', 10_000);
      second.child.kill('SIGTERM');
      expect(await exitCode(second), second.output().slice(-3000)).toBe(0);
      expect(offersPosted()).toBe(BACKLOG);
      expect(new Set(server.requests.filter((request) => request.path.endsWith('/make_offer/')).map((request) => request.path)).size).toBe(
        BACKLOG,
      );
    },
  );
});

describe('stop() during a poll', () => {
  it('decides no request after the one in flight and records no poll', async () => {
    const f = await startPollFixture();
    try {
      f.server.route(LIST, (_request, server) => listPage(server, ids, BACKLOG, null));
      for (const id of ids) {
        f.server.route(`POST /api/v3/loan_requests/${id}/make_offer/`, (request) => {
          const body = request.body as { offered_interest: number; automate_fund: boolean };
          return { status: 201, body: offerJson(id, id, body.offered_interest, body.automate_fund), delayMs: 50 };
        });
      }
      const posted = (): number => f.server.requests.filter((request) => request.path.endsWith('/make_offer/')).length;
      const poll = f.daemon.runJob('poll');
      await waitFor(() => posted() >= 3, 'three offers');
      const postedAtStop = posted();
      await f.daemon.stop();
      await poll;
      expect(posted() - postedAtStop).toBeLessThanOrEqual(1);
      expect(ids.filter((id) => f.store.decisions.has(id))).toHaveLength(posted());
      expect(f.store.state.get(LAST_POLL_KEY)).toBeUndefined();
      expect(f.logs.some((line) => line.msg === 'poll stopped for shutdown; the rest is decided after the restart')).toBe(true);
    } finally {
      await f.close();
    }
  });
});
