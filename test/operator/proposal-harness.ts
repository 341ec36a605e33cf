/**
 * A daemon on an in-process sandbox for the proposals' tests: the operator listener on a free
 * port with LENDBOT_OPERATOR_TOKEN and two named tokens, `claude` (no allowance: every offer it
 * asks for waits for a person) and `small` (an allowance), a real SQLite file that survives a
 * restart of the daemon, and real time for people's minutes given by the test (a ManualClock for
 * expiry, the system clock where `lendbot approve` runs beside it). No webhooks, no polls: every
 * offer at the sandbox is an agent's.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock } from '../../src/clock/clock.js';
import { sandboxRequestHolds } from '../../src/cli/commands/run/sandbox-request-holds.js';
import { createDaemon, type Daemon } from '../../src/daemon/daemon.js';
import { daemonConfigSchema, type DaemonConfigFile } from '../../src/daemon/daemon-config.js';
import { startSandbox, type LoanRequestFields, type SandboxHandle } from '../../src/sandbox/index.js';
import type { LoanRequest } from '../../src/domain/index.js';
import type { MarketplaceClient } from '../../src/service/index.js';
import { openStore, type Store } from '../../src/store/index.js';
import { OFFER_ALL } from '../daemon/daemon-harness.js';
import { captureLog } from '../log/log-capture.js';
import { clientFor } from '../sandbox/sandbox-fixture.js';

export const OPERATOR_TOKEN = 'proposals-operator-token-4be1c07d93a5f2e8';
export const CLAUDE_TOKEN = 'proposals-claude-token-19d3a7c5e0b8f642';
export const SMALL_TOKEN = 'proposals-small-token-7f20c4e9a1d3b865';

export interface ProposalHarness {
  sandbox: SandboxHandle;
  daemon: Daemon;
  store: Store;
  /** The database file (for `lendbot approve --db`). */
  dbPath: string;
  logs: Array<Record<string, unknown>>;
  base: string;
  mcpUrl: URL;
  /** A request at the sandbox (risk level 1, max rate 0.3, no competitors). */
  makeRequest(fields?: LoanRequestFields): LoanRequest;
  /** The offers the sandbox holds on one request. */
  offersAt(loanRequestId: number): ReturnType<SandboxHandle['control']['offers']>;
  /** fetch on the operator listener. */
  call(path: string, init?: RequestInit): Promise<Response>;
  /** A dashboard session's cookie, signed in with this token. */
  signIn(token: string): Promise<string>;
  /** Stops the daemon and starts a new one on the same file (a restart); `between` runs while none runs. */
  restart(between?: () => void): Promise<void>;
  close(): Promise<void>;
}

export interface ProposalHarnessOptions {
  realClock?: Clock;
  /** The `small` token's allowance (default: $1,500 per offer, $2,500 a day, risk levels 0 and 1). */
  allowance?: { max_per_offer: number; max_per_day: number; risk_levels: number[] };
  proposalExpiryMinutes?: number;
  /** The strategy files (default: offer-all alone). */
  strategyFiles?: string[];
  /** Hold a request at the sandbox while its proposal waits, as `lendbot run --sandbox` does (over its control API). */
  holdRequests?: boolean;
}

export async function startProposalHarness(options: ProposalHarnessOptions = {}): Promise<ProposalHarness> {
  const sandbox = await startSandbox({ manualClock: true, seed: 23, arrivalsPerHour: 0 });
  sandbox.control.setBalance(5_000_000);
  const dir = mkdtempSync(join(tmpdir(), 'lendbot-proposals-'));
  const dbPath = join(dir, 'lendbot.db');
  const config: DaemonConfigFile = daemonConfigSchema.parse({
    db: dbPath,
    strategies: options.strategyFiles ?? [OFFER_ALL],
    webhook: { host: '127.0.0.1', port: 0 },
    poll: { schedule: 'off', at_start: false },
    jobs: { balance_refresh: 'off', reconcile: 'off', fund_accepted: 'off', protections: 'off' },
    risk: { max_open_exposure: null, max_per_borrower: null, max_amount_per_day: null },
    ops: {
      host: '127.0.0.1',
      port: 0,
      proposal_expiry_minutes: options.proposalExpiryMinutes ?? 30,
      tokens: [
        { name: 'claude', env: 'LENDBOT_TOKEN_CLAUDE' },
        {
          name: 'small',
          env: 'LENDBOT_TOKEN_SMALL',
          allowance: options.allowance ?? { max_per_offer: 1500, max_per_day: 2500, risk_levels: [0, 1] },
        },
      ],
    },
  });
  const { log, lines: logs } = captureLog();
  const env = { LENDBOT_OPERATOR_TOKEN: OPERATOR_TOKEN, LENDBOT_TOKEN_CLAUDE: CLAUDE_TOKEN, LENDBOT_TOKEN_SMALL: SMALL_TOKEN };
  const service: MarketplaceClient = clientFor(sandbox, { daemonRetries: true });
  const start = async (store: Store): Promise<Daemon> => {
    const daemon = await createDaemon(config, env, {
      client: service,
      clock: sandbox.clock,
      store,
      log,
      webhookSecret: sandbox.credentials.webhookSecret,
      ...(options.realClock ? { realClock: options.realClock } : {}),
      // As a sandbox at 60× would: a proposal's real half hour holds the borrower 30 market hours.
      ...(options.holdRequests === true ? { requestHolds: sandboxRequestHolds(sandbox.url, sandbox.clock, 60) } : {}),
    });
    await daemon.start();
    return daemon;
  };

  let store = openStore(dbPath);
  let daemon = await start(store);
  const baseOf = (d: Daemon): string => {
    const url = d.operatorUrl();
    if (url === undefined) throw new Error('the operator listener did not start');
    return url;
  };
  const harness: ProposalHarness = {
    sandbox,
    daemon,
    store,
    dbPath,
    logs,
    base: baseOf(daemon),
    mcpUrl: new URL('/mcp', baseOf(daemon)),
    makeRequest: (fields = {}) =>
      sandbox.control.createLoanRequest({ svcColor: 1, maxInterestRate: 0.3, competitorOffers: 0, hasBankingData: true, ...fields }),
    offersAt: (id) => sandbox.control.offers().filter((offer) => offer.loan_request?.id === id),
    call: (path, init) => fetch(new URL(path, harness.base), init),
    async signIn(token) {
      const response = await harness.call('/api/session', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token }),
      });
      if (response.status !== 204) throw new Error(`sign-in: ${response.status} ${await response.text()}`);
      const cookie = response.headers.get('set-cookie')?.split(';')[0];
      if (cookie === undefined) throw new Error('sign-in set no cookie');
      return cookie;
    },
    async restart(between) {
      await daemon.stop();
      store.close();
      between?.();
      store = openStore(dbPath);
      daemon = await start(store);
      harness.daemon = daemon;
      harness.store = store;
      harness.base = baseOf(daemon);
      harness.mcpUrl = new URL('/mcp', harness.base);
    },
    async close() {
      await daemon.stop();
      await sandbox.close();
      store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return harness;
}

/** A JSON POST to the operator API with these headers (a cookie, or a bearer token). */
export function postJson(harness: ProposalHarness, path: string, headers: Record<string, string>, body: unknown = {}): Promise<Response> {
  return harness.call(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
}
