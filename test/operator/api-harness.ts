/**
 * A daemon on an in-process sandbox with its operator listener on a free port, for the operator
 * API's tests: real HTTP to the listener, a real SQLite file, the sandbox's manual clock. Jobs
 * run only when a test calls them (`daemon.runJob('poll')`), so every decision is the test's.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDaemon, type Daemon } from '../../src/daemon/daemon.js';
import { freePort } from '../../src/daemon/free-port.js';
import { daemonConfigSchema } from '../../src/daemon/daemon-config.js';
import { startSandbox, type LoanRequestFields, type SandboxHandle } from '../../src/sandbox/index.js';
import type { LoanRequest } from '../../src/domain/index.js';
import { openStore, type Store } from '../../src/store/index.js';
import { captureLog } from '../log/log-capture.js';
import { OFFER_ALL } from '../daemon/daemon-harness.js';
import { clientFor } from '../sandbox/sandbox-fixture.js';
import type { CompiledStrategy } from '../../src/engine/index.js';

export const API_TOKEN = 'api-operator-token-7c41d2aa9e';
export const VIEWER_TOKEN = 'api-viewer-token-18f3b6c0d5';

export interface ApiHarness {
  sandbox: SandboxHandle;
  daemon: Daemon;
  store: Store;
  /** The store's SQLite file (for commands that open it themselves). */
  dbPath: string;
  logs: Array<Record<string, unknown>>;
  /** The operator listener's base URL. */
  base: string;
  /** ops.reports_dir (absolute, created empty). */
  reportsDir: string;
  /** The webhook listener's base URL. */
  webhookBase: string;
  /** A request at the sandbox, with the fields the tests need by default. */
  makeRequest(fields?: LoanRequestFields): LoanRequest;
  /** fetch on the operator listener. */
  call(path: string, init?: RequestInit): Promise<Response>;
  /** fetch with the operator token, JSON in and out. */
  asOperator(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

export async function startApiHarness(
  options: { openOnLoopback?: boolean; mode?: 'live' | 'sandbox'; strategies?: CompiledStrategy[] } = {},
): Promise<ApiHarness> {
  const sandbox = await startSandbox({ manualClock: true, seed: 17, arrivalsPerHour: 0 });
  sandbox.control.setBalance(2_000_000);
  const dir = mkdtempSync(join(tmpdir(), 'lendbot-api-'));
  const reportsDir = join(dir, 'reports');
  mkdirSync(reportsDir);
  const store = openStore(join(dir, 'lendbot.db'));
  const config = daemonConfigSchema.parse({
    db: join(dir, 'lendbot.db'),
    strategies: [OFFER_ALL],
    webhook: { host: '127.0.0.1', port: await freePort() },
    poll: { schedule: 'off', at_start: false },
    jobs: { balance_refresh: 'off', reconcile: 'off', fund_accepted: 'off', protections: 'off' },
    risk: { max_open_exposure: 50_000, max_per_borrower: null, max_amount_per_day: null, max_share_by_risk_level: { '2': 0.25 } },
    ops: {
      host: '127.0.0.1',
      port: 0,
      tokens: [{ name: 'viewer', env: 'LENDBOT_TOKEN_VIEWER' }],
      open_on_loopback: options.openOnLoopback ?? true,
      reports_dir: reportsDir,
    },
  });
  const { log, lines: logs } = captureLog('debug');
  const service = clientFor(sandbox, { daemonRetries: true });
  const env = { LENDBOT_OPERATOR_TOKEN: API_TOKEN, LENDBOT_TOKEN_VIEWER: VIEWER_TOKEN };
  const daemon = await createDaemon(config, env, {
    client: service,
    clock: sandbox.clock,
    store,
    log,
    mode: options.mode ?? 'sandbox',
    webhookSecret: sandbox.credentials.webhookSecret,
    ...(options.strategies === undefined ? {} : { strategies: options.strategies }),
  });
  await daemon.start();
  const base = daemon.operatorUrl();
  if (base === undefined) throw new Error('the operator listener did not start');
  const call = (path: string, init?: RequestInit) => fetch(new URL(path, base), init);
  return {
    sandbox,
    daemon,
    store,
    dbPath: join(dir, 'lendbot.db'),
    logs,
    base,
    reportsDir,
    webhookBase: new URL(daemon.webhookUrl).origin,
    makeRequest: (fields = {}) =>
      sandbox.control.createLoanRequest({ svcColor: 1, maxInterestRate: 0.3, competitorOffers: 0, hasBankingData: true, ...fields }),
    call,
    asOperator: (path, init = {}) =>
      call(path, {
        ...init,
        headers: {
          authorization: `Bearer ${API_TOKEN}`,
          ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(init.headers as Record<string, string> | undefined),
        },
      }),
    async close() {
      await daemon.stop();
      await sandbox.close();
      store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
