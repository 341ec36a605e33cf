/**
 * A daemon whose marketplace is the client tests' fixture server (test/service/fixture-server.ts),
 * so a test controls every page of the loan request list and sees every call the daemon makes, in
 * order. Real SQLite file in a temp dir, manual clock; nothing is started but what a test runs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../src/clock/clock.js';
import { createDaemon, type Daemon } from '../../src/daemon/daemon.js';
import { daemonConfigSchema, type DaemonConfigFile } from '../../src/daemon/daemon-config.js';
import { loadStrategyFile, type CompiledStrategy } from '../../src/engine/index.js';
import { loanRequestSchema, type LoanRequest } from '../../src/domain/index.js';
import { createMarketplaceClient, DEFAULT_RETRY, type MarketplaceClient } from '../../src/service/index.js';
import { openStore, type Store } from '../../src/store/index.js';
import { captureLog } from '../log/log-capture.js';
import { startFixtureServer, type FixtureServer } from '../service/fixture-server.js';
import { loanRequestJson, offerJson, transferGroupJson } from '../service/fixtures/resources.js';
import { OFFER_ALL } from './daemon-harness.js';

export const API_KEY = 'poll-key';
export const SECRET_KEY = 'poll-secret';
export const LIST = 'GET /api/v3/loan_requests/';
export const LIST_PATH = '/api/v3/loan_requests/';

export interface PollFixture {
  server: FixtureServer;
  daemon: Daemon;
  store: Store;
  clock: ManualClock;
  logs: Array<Record<string, unknown>>;
  /** "GET /api/v3/loan_requests/?page=2", "POST /api/v3/loan_requests/7/make_offer/", ... in arrival order. */
  calls(): string[];
  close(): Promise<void>;
}

export interface PollFixtureOptions {
  /** The config (default: caps off, jobs off); `db` is set here. */
  config?: Record<string, unknown>;
  strategies?: CompiledStrategy[];
  /** Let the daemon build its own client from LENDBOT_* variables and the config (default: a client made here). */
  liveClient?: boolean;
}

export async function startPollFixture(options: PollFixtureOptions = {}): Promise<PollFixture> {
  const clock = new ManualClock('2026-11-20T14:00:00Z');
  const server = await startFixtureServer({ apiKey: API_KEY, secretKey: SECRET_KEY, nowSeconds: () => Math.floor(clock.now() / 1000) });
  // Money for every offer a test makes; make_offer places them.
  server.route('GET /api/v3/transfer_history/', () => ({
    status: 200,
    body: { count: 1, next: null, previous: null, results: [transferGroupJson('2026-11-01', [['processed', 'Deposit', '100000.00']])] },
  }));
  let offerIds = 0;
  const dir = mkdtempSync(join(tmpdir(), 'lendbot-poll-'));
  const store = openStore(join(dir, 'lendbot.db'));
  const config: DaemonConfigFile = daemonConfigSchema.parse({
    poll: { schedule: 'off', at_start: false },
    jobs: { balance_refresh: 'off', reconcile: 'off', fund_accepted: 'off', protections: 'off' },
    risk: { max_open_exposure: null, max_per_borrower: null, max_amount_per_day: null },
    ops: { port: 0 },
    ...options.config,
    db: join(dir, 'lendbot.db'),
  });
  const { log, lines } = captureLog();
  const env = { LENDBOT_BASE_URL: server.url, LENDBOT_API_KEY: API_KEY, LENDBOT_SECRET_KEY: SECRET_KEY };
  const client = options.liveClient ? undefined : fixtureClient(server.url, clock);
  const daemon = await createDaemon(config, env, {
    ...(client ? { client } : {}),
    clock,
    store,
    log,
    strategies: options.strategies ?? [await loadStrategyFile(OFFER_ALL)],
    webhookSecret: 'poll-webhook-secret',
  });
  // Routes are keyed by exact path and make_offer's carries the id: every id a test lists is
  // offered on successfully unless the test routes its own answer.
  for (let id = 1; id <= 400; id++) {
    server.route(`POST /api/v3/loan_requests/${id}/make_offer/`, (request) => {
      offerIds += 1;
      const body = request.body as { offered_interest: number; automate_fund: boolean };
      return { status: 201, body: offerJson(offerIds, id, body.offered_interest, body.automate_fund) };
    });
  }
  return {
    server,
    daemon,
    store,
    clock,
    logs: lines,
    calls: () =>
      server.requests.map((request) => `${request.method} ${request.path}${request.query.size > 0 ? `?${request.query.toString()}` : ''}`),
    async close() {
      await daemon.stop();
      await server.close();
      store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A client of the fixture marketplace at `baseUrl`, signing as it expects, with no read retries. */
export function fixtureClient(baseUrl: string, clock: ManualClock, timeoutMs = 5000): MarketplaceClient {
  return createMarketplaceClient(
    {
      baseUrl,
      apiKey: API_KEY,
      secretKey: SECRET_KEY,
      signatureMode: 'timestamp-secret',
      numericRangeFormat: 'min-max-params',
      timeoutMs,
      retry: { ...DEFAULT_RETRY, readRetries: 0 },
    },
    { clock },
  );
}

/** A loan request as the daemon parses it (for store rows a test writes itself). */
export function loanRequest(id: number): LoanRequest {
  return loanRequestSchema.parse(loanRequestJson(id));
}

/** Ids first to last. */
export function ids(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

/** A page of the loan request list: `ids` as items, `count` and a link to page `nextPage` (or none). */
export function listPage(
  server: FixtureServer,
  itemIds: readonly number[],
  count: number,
  nextPage: number | null,
): { status: number; body: unknown } {
  return {
    status: 200,
    body: {
      count,
      next: nextPage === null ? null : `${server.url}${LIST_PATH}?page=${nextPage}`,
      previous: null,
      results: itemIds.map((id) => loanRequestJson(id)),
    },
  };
}
