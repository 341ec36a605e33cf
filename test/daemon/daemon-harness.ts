/**
 * A daemon wired to an in-process sandbox on a manual clock, with a real SQLite file in a temp
 * dir, the real webhook listener on a free port, and log lines captured in memory.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { SignJWT } from 'jose';
import { createDaemon, type Daemon } from '../../src/daemon/daemon.js';
import { daemonConfigSchema } from '../../src/daemon/daemon-config.js';
import { freePort } from '../../src/daemon/free-port.js';
import { loadStrategyFile } from '../../src/engine/index.js';
import type { RiskLimitsInput } from '../../src/risk/index.js';
import { startSandbox, type SandboxHandle, type SandboxOptions } from '../../src/sandbox/index.js';
import type { MarketplaceClient } from '../../src/service/index.js';
import { clientFor } from '../sandbox/sandbox-fixture.js';
import { openStore, type Store } from '../../src/store/index.js';
import { captureLog } from '../log/log-capture.js';

export const OFFER_ALL = fileURLToPath(new URL('./fixtures/offer-all.yaml', import.meta.url));
/** offer-all with `automate_fund: false`: the daemon funds accepted offers itself. */
export const OFFER_ALL_MANUAL = fileURLToPath(new URL('./fixtures/offer-all-manual.yaml', import.meta.url));
// Jobs run only when a test calls them.
const NEVER = 'off';

export interface DaemonHarness {
  sandbox: SandboxHandle;
  daemon: Daemon;
  store: Store;
  dir: string;
  logs: Array<Record<string, unknown>>;
  /** The client the daemon uses (signed, on the sandbox's clock). */
  client: MarketplaceClient;
  close(): Promise<void>;
}

export interface HarnessOptions {
  dryRun?: boolean;
  risk?: RiskLimitsInput;
  balanceCents?: number;
  /** Strategy files in priority order (default: the offer-all test strategy). */
  strategyFiles?: string[];
  /** Log level of the captured lines (default info). */
  logLevel?: 'debug' | 'info';
  /** More sandbox options (e.g. webhookTokenLayout). */
  sandbox?: SandboxOptions;
  /** The listener's `webhook.token_layout` (default auto). */
  webhookTokenLayout?: 'auto' | 'envelope' | 'data';
  /** Wraps the daemon's client (e.g. to count calls); the real client, on real HTTP, underneath. */
  wrapClient?: (client: MarketplaceClient) => MarketplaceClient;
  /** The daemon's environment (e.g. LENDBOT_OPERATOR_TOKEN); default empty. */
  env?: Record<string, string>;
  /** The config's `notifications:` section (e.g. Telegram commands against a fixture bot); default none. */
  notifications?: Record<string, unknown>;
  /** The config's `retrain:` section; default the shipped one (off). */
  retrain?: Record<string, unknown>;
  /** false leaves messaging unattached (DaemonOverrides.messaging). */
  messaging?: false;
  /** false leaves retraining unattached (DaemonOverrides.retrain). */
  retrainWing?: false;
  /** false leaves the cash-flow wing unattached (DaemonOverrides.cashFlow). */
  cashFlowWing?: false;
  /** false leaves the agents' proposals unattached (DaemonOverrides.proposals). */
  proposalsWing?: false;
  /** false leaves the challengers unattached (DaemonOverrides.challengers). */
  challengersWing?: false;
  /** false leaves market learning unattached (DaemonOverrides.marketLearning). */
  marketLearningWing?: false;
  /** false leaves the learned default level unattached (DaemonOverrides.calibration). */
  calibrationWing?: false;
  /** Writes to the store before the daemon starts (what a previous run left, e.g. a learner's state). */
  seedStore?: (store: Store) => void;
}

export async function startDaemonHarness(options: HarnessOptions = {}): Promise<DaemonHarness> {
  const sandbox = await startSandbox({ manualClock: true, seed: 7, ...options.sandbox });
  sandbox.control.setBalance(options.balanceCents ?? 1_000_000);
  const dir = mkdtempSync(join(tmpdir(), 'lendbot-daemon-'));
  const store = openStore(join(dir, 'lendbot.db'));
  options.seedStore?.(store);
  const port = await freePort();
  const config = daemonConfigSchema.parse({
    db: join(dir, 'lendbot.db'),
    dry_run: options.dryRun ?? false,
    webhook: { host: '127.0.0.1', port, ...(options.webhookTokenLayout === undefined ? {} : { token_layout: options.webhookTokenLayout }) },
    // The operator listener now serves on loopback without a token too: a free port, not 8081.
    ops: { port: 0 },
    poll: { schedule: NEVER, at_start: false },
    jobs: { balance_refresh: NEVER, reconcile: NEVER, fund_accepted: NEVER, protections: NEVER, retrain: NEVER },
    // The shipped caps are starting points for a live account; tests set the limits they test.
    risk: { max_open_exposure: null, max_per_borrower: null, max_amount_per_day: null, ...options.risk },
    ...(options.notifications === undefined ? {} : { notifications: options.notifications }),
    ...(options.retrain === undefined ? {} : { retrain: options.retrain }),
  });
  const { log, lines: logs } = captureLog(options.logLevel);
  const client = clientFor(sandbox, { daemonRetries: true });
  const daemon = await createDaemon(config, options.env ?? {}, {
    client: options.wrapClient?.(client) ?? client,
    clock: sandbox.clock,
    store,
    log,
    strategies: await Promise.all((options.strategyFiles ?? [OFFER_ALL]).map((path) => loadStrategyFile(path))),
    webhookSecret: sandbox.credentials.webhookSecret,
    ...(options.messaging === undefined ? {} : { messaging: options.messaging }),
    ...(options.retrainWing === undefined ? {} : { retrain: options.retrainWing }),
    ...(options.cashFlowWing === undefined ? {} : { cashFlow: options.cashFlowWing }),
    ...(options.proposalsWing === undefined ? {} : { proposals: options.proposalsWing }),
    ...(options.challengersWing === undefined ? {} : { challengers: options.challengersWing }),
    ...(options.marketLearningWing === undefined ? {} : { marketLearning: options.marketLearningWing }),
    ...(options.calibrationWing === undefined ? {} : { calibration: options.calibrationWing }),
  });
  await daemon.start();
  sandbox.control.subscribe(daemon.webhookUrl, 'investor@example.com');
  return {
    sandbox,
    daemon,
    store,
    dir,
    logs,
    client,
    async close() {
      await daemon.stop();
      await sandbox.close();
      store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Waits until `check` holds, polling every 20 ms, up to `timeoutMs`. */
export async function waitFor(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Creates a request in the sandbox (max rate 0.6 unless `fields` say otherwise) and waits until the daemon's offer on it is placed. */
export async function offeredRequest(
  h: DaemonHarness,
  fields: Parameters<DaemonHarness['sandbox']['control']['createLoanRequest']>[0] = {},
): Promise<number> {
  const request = h.sandbox.control.createLoanRequest({ svcColor: 1, maxInterestRate: 0.6, ...fields });
  await h.sandbox.control.flushWebhooks();
  await waitFor(() => h.store.offers.getByRequest(request.id)?.state === 'placed', `the offer on ${request.id}`);
  await h.daemon.pipeline.idle();
  return request.id;
}

/**
 * A webhook's request and a polled one (its webhook lost), each decided and offered on the sandbox
 * exactly once: what the wings' left-out tests show the daemon still does. Their ids.
 */
export async function offerHookedAndPolled(h: DaemonHarness): Promise<number[]> {
  h.sandbox.control.setFaults({ dropWebhookRate: 0 });
  const hooked = h.sandbox.control.createLoanRequest({ svcColor: 1, maxInterestRate: 0.6, competitorOffers: 0 });
  await h.sandbox.control.flushWebhooks();
  await waitFor(() => h.store.decisions.has(hooked.id), 'the webhook request decided');
  h.sandbox.control.setFaults({ dropWebhookRate: 1 });
  const polled = h.sandbox.control.createLoanRequest({ svcColor: 1, maxInterestRate: 0.6, competitorOffers: 0 });
  await h.sandbox.control.flushWebhooks();
  await h.daemon.poller.poll();
  await h.daemon.pipeline.idle();
  const ids = [hooked.id, polled.id];
  for (const id of ids) {
    expect(h.store.decisions.get(id)?.action).toBe('offer');
    expect(h.store.offers.getByRequest(id)?.state).toBe('placed');
    expect(h.sandbox.control.offers().filter((offer) => offer.loan_request?.id === id)).toHaveLength(1);
  }
  expect(h.store.requests.get(polled.id)?.source).toBe('poll');
  return ids;
}

/** A webhook token as the marketplace signs it (our reading of spec part 6; docs/webhooks.md). */
export function signEvent(secret: string, claims: Record<string, unknown>): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setIssuedAt().sign(new TextEncoder().encode(secret));
}

/** POSTs a webhook body to the daemon's listener. */
export async function postWebhook(url: string, body: string, topic = 'new_loan_request_created'): Promise<number> {
  const response = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Svc-Topic': topic }, body });
  await response.arrayBuffer();
  return response.status;
}
