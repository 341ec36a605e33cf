/**
 * A marketplace that refuses every call (our secret key is wrong: 403 Invalid HMAC) must not be
 * hammered: events and jobs back off, /healthz says degraded with the reason, the log says it
 * once, and one notification goes out. Before back-off, the inbox re-read the same failed events
 * in a tight loop (15,119 signed requests in about 15 s).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/clock.js';
import { createDaemon, type Daemon } from '../../src/daemon/daemon.js';
import { daemonConfigSchema } from '../../src/daemon/daemon-config.js';
import { freePort } from '../../src/daemon/free-port.js';
import { loadStrategyFile } from '../../src/engine/index.js';
import { createMarketplaceClient, DEFAULT_RETRY } from '../../src/service/index.js';
import { openStore, type Store } from '../../src/store/index.js';
import { captureLog } from '../log/log-capture.js';
import { startNotificationReceiver, type NotificationReceiver } from '../messaging/notification-receiver.js';
import { startFixtureServer, type FixtureServer } from '../service/fixture-server.js';
import { OFFER_ALL, postWebhook, signEvent } from './daemon-harness.js';

const WEBHOOK_SECRET = 'storm-webhook-secret';
const EVERY_SECOND = '* * * * * *';

let dir: string;
let market: FixtureServer;
let receiver: NotificationReceiver;
let daemon: Daemon | undefined;
let store: Store;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lendbot-storm-'));
  market = await startFixtureServer({ apiKey: 'key', secretKey: 'the-right-secret' });
  receiver = await startNotificationReceiver();
});

afterEach(async () => {
  await daemon?.stop();
  daemon = undefined;
  store.close();
  await market.close();
  await receiver.close();
  rmSync(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a marketplace refusing our credentials', () => {
  it('is asked a bounded number of times, reported degraded once, and retried after the back-off', { timeout: 30_000 }, async () => {
    const port = await freePort();
    const config = daemonConfigSchema.parse({
      db: join(dir, 'lendbot.db'),
      webhook: { host: '127.0.0.1', port },
      ops: { port: 0 },
      poll: { schedule: EVERY_SECOND, at_start: true },
      jobs: { balance_refresh: EVERY_SECOND, reconcile: EVERY_SECOND, fund_accepted: EVERY_SECOND },
      notifications: { url: receiver.url, retries: 0 },
    });
    // The market's clock is frozen: back-off waits only end when the test moves it.
    const clock = new ManualClock(Date.now());
    const { log, lines } = captureLog('debug');
    store = openStore(config.db);
    const client = createMarketplaceClient(
      {
        baseUrl: market.url,
        apiKey: 'key',
        secretKey: 'a-wrong-secret',
        signatureMode: 'timestamp-secret',
        numericRangeFormat: 'min-max-params',
        timeoutMs: 5000,
        retry: DEFAULT_RETRY,
      },
      { clock },
    );
    daemon = await createDaemon(
      config,
      {},
      {
        client,
        clock,
        store,
        log,
        strategies: [await loadStrategyFile(OFFER_ALL)],
        webhookSecret: WEBHOOK_SECRET,
      },
    );
    await daemon.start();

    // Fifty webhooks arrive while every job ticks each second for three seconds.
    for (let id = 1; id <= 50; id++) {
      const token = await signEvent(WEBHOOK_SECRET, {
        webhook_uuid: randomUUID(),
        topic: 'new_loan_request_created',
        data: {
          loan_request_id: 1000 + id,
          loan_request_amount: 500,
          loan_request_type: 'cash',
          has_banking_data: true,
          automated_loan_request: false,
        },
      });
      expect(await postWebhook(daemon.webhookUrl, JSON.stringify({ token }))).toBe(200);
    }
    await sleep(3_000);

    // Each job failed once (poll, balance, sync; fund has nothing to do) and the inbox ended its
    // pass after three events failed in a row (two list reads each: narrowed, then the whole list).
    const firstWave = market.requests.length;
    expect(firstWave).toBeGreaterThan(0);
    expect(firstWave).toBeLessThanOrEqual(12);
    expect(store.inbox.depth()).toBe(50);

    const health = await fetch(daemon.webhookUrl.replace('/webhooks', '/healthz'));
    expect(health.status).toBe(503);
    const report = (await health.json()) as { status: string; checks: { service: { ok: boolean; reason: string } } };
    expect(report.status).toBe('degraded');
    expect(report.checks.service).toMatchObject({ ok: false });
    expect(report.checks.service.reason).toMatch(/^Invalid HMAC on \w+: check LENDBOT_SECRET_KEY and LENDBOT_SIGNATURE_MODE$/);

    const said = (msg: string) => lines.filter((line) => line.msg === msg).length;
    expect(said('marketplace refuses our calls; the daemon is degraded until it accepts them again')).toBe(1);
    expect(said('webhook events not processed; every one tried failed, backing off')).toBe(1);
    expect(receiver.received.filter((body) => body.event === 'service_degraded')).toHaveLength(1);

    // Once the longest wait is over, each job and the inbox try once more, and wait longer.
    clock.advance(11 * 60_000);
    await sleep(2_500);
    const secondWave = market.requests.length - firstWave;
    expect(secondWave).toBeGreaterThan(0);
    expect(secondWave).toBeLessThanOrEqual(12);
    expect(said('webhook events not processed; every one tried failed, backing off')).toBe(2);
    expect(lines.filter((line) => line.msg?.toString().startsWith('job failed; next try in') && line.job === 'poll')).toHaveLength(2);
    expect(receiver.received.filter((body) => body.event === 'service_degraded')).toHaveLength(1);
  });
});
