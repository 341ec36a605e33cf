/**
 * A daemon for the dashboard's browser test: an in-process sandbox on a manual clock with its
 * market's own arrivals, webhooks delivered to the daemon's real listener, the operator listener
 * on a free port with LENDBOT_OPERATOR_TOKEN, and a reports folder holding one real backtest
 * report. `advance` moves the market and waits until the daemon has worked through every webhook
 * it was sent, so a test knows which decisions exist.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { backtestHtml, runBacktest } from '../../src/backtest/index.js';
import { createDaemon, type Daemon } from '../../src/daemon/daemon.js';
import { daemonConfigSchema } from '../../src/daemon/daemon-config.js';
import { freePort } from '../../src/daemon/free-port.js';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/index.js';
import { openStore, type Store } from '../../src/store/index.js';
import { syntheticRecording } from '../backtest/recording-fixtures.js';
import { flatStrategy } from '../backtest/strategy-fixtures.js';
import { OFFER_ALL, waitFor } from '../daemon/daemon-harness.js';
import { captureLog } from '../log/log-capture.js';
import { clientFor } from '../sandbox/sandbox-fixture.js';
import { CASHFLOW, OPERATOR_TOKEN } from './operator-harness.js';

export { OPERATOR_TOKEN };
export const REPORT_NAME = 'flat-synthetic.html';
const HOUR_MS = 3_600_000;

export interface DashboardDaemon {
  sandbox: SandboxHandle;
  daemon: Daemon;
  store: Store;
  /** The operator listener's base URL, e.g. http://127.0.0.1:41234 */
  url: string;
  reportsDir: string;
  logs: Array<Record<string, unknown>>;
  /** Decisions recorded so far (offers and skips). */
  decisions(): number;
  /** Moves the market on by `hours` and waits until the daemon has worked through every webhook. */
  advance(hours: number): Promise<void>;
  /** An operator API answer, with the bearer token. */
  api<T>(path: string): Promise<T>;
  close(): Promise<void>;
}

/** A backtest report as `lendbot backtest --html` writes it, of a synthetic recording. */
export function writeReport(folder: string, name = REPORT_NAME): string {
  const lines = syntheticRecording(120, 7, (low, random) => (low < 620 && random() < 0.5 ? 0.4 : 1));
  const result = runBacktest(lines, [flatStrategy()], { startingBalanceCents: 5_000_000 });
  const file = join(folder, name);
  writeFileSync(file, backtestHtml([result], 'synthetic.jsonl'));
  return file;
}

export interface DashboardDaemonOptions {
  arrivalsPerHour?: number;
  seed?: number;
  /** Strategy files (default cashflow, then offer-all). */
  strategies?: string[];
  /** The simulated seconds per real second the daemon is told (the sandbox's speed; default 1). */
  clockSpeed?: number;
}

export async function startDashboardDaemon(options: DashboardDaemonOptions = {}): Promise<DashboardDaemon> {
  const sandbox = await startSandbox({ manualClock: true, seed: options.seed ?? 5, arrivalsPerHour: options.arrivalsPerHour ?? 12 });
  sandbox.control.setBalance(50_000_000);
  const dir = mkdtempSync(join(tmpdir(), 'lendbot-dashboard-'));
  const reportsDir = join(dir, 'reports');
  mkdirSync(reportsDir);
  writeReport(reportsDir);
  const store = openStore(join(dir, 'lendbot.db'));
  const config = daemonConfigSchema.parse({
    db: join(dir, 'lendbot.db'),
    // cashflow scores and prices with real terms (an explanation worth reading); offer-all offers
    // on what cashflow leaves, so offers keep coming while offers are allowed.
    strategies: options.strategies ?? [CASHFLOW, OFFER_ALL],
    webhook: { host: '127.0.0.1', port: await freePort() },
    poll: { schedule: 'off', at_start: false },
    jobs: { balance_refresh: 'off', reconcile: 'off', fund_accepted: 'off', protections: 'off' },
    risk: { max_open_exposure: null, max_per_borrower: null, max_amount_per_day: null },
    ops: { host: '127.0.0.1', port: 0, reports_dir: reportsDir },
  });
  const { log, lines: logs } = captureLog();
  const daemon = await createDaemon(
    config,
    { LENDBOT_OPERATOR_TOKEN: OPERATOR_TOKEN },
    {
      client: clientFor(sandbox, { daemonRetries: true }),
      clock: sandbox.clock,
      ...(options.clockSpeed === undefined ? {} : { clockSpeed: options.clockSpeed }),
      store,
      log,
      webhookSecret: sandbox.credentials.webhookSecret,
    },
  );
  await daemon.start();
  sandbox.control.subscribe(daemon.webhookUrl, 'investor@example.com');
  const url = daemon.operatorUrl();
  if (url === undefined) throw new Error('the operator listener did not start');

  const decisions = (): number => {
    const counts = store.decisions.countByAction({ sinceMs: 0, untilMs: Date.parse('9999-01-01T00:00:00Z') });
    return counts.offer + counts.skip;
  };

  return {
    sandbox,
    daemon,
    store,
    url,
    reportsDir,
    logs,
    decisions,
    async advance(hours) {
      // An hour at a time, and only once the daemon is idle: a jump of the clock under a call in
      // flight would make its signature too old for the sandbox.
      for (let hour = 0; hour < hours; hour += 1) {
        sandbox.control.advance(HOUR_MS);
        await sandbox.control.flushWebhooks();
        // Every webhook is in the inbox once acknowledged; an empty inbox is every one decided (or
        // prefiltered: a crypto request gets no decision row).
        await waitFor(() => store.inbox.depth() === 0, 'the daemon to work through its inbox', 20_000);
      }
    },
    async api<T>(path: string): Promise<T> {
      const response = await fetch(new URL(path, url), { headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } });
      if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
      return (await response.json()) as T;
    },
    async close() {
      await daemon.stop();
      await sandbox.close();
      store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
