/**
 * The digest in the daemon (issue 37, item 6): the daemon's own digest job, on a real SQLite file
 * and a simulated clock, against a real notification receiver that fails its first two
 * deliveries, with the daemon stopped and started again across day boundaries. Every day is
 * sent exactly once, in order.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/clock.js';
import { DAY_MS } from '../../src/clock/time-constants.js';
import { createDaemon, type Daemon } from '../../src/daemon/daemon.js';
import { daemonConfigSchema } from '../../src/daemon/daemon-config.js';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/index.js';
import { openStore, type Store } from '../../src/store/index.js';
import { captureLog } from '../log/log-capture.js';
import { clientFor } from '../sandbox/sandbox-fixture.js';
import { startNotificationReceiver, type NotificationReceiver } from './notification-receiver.js';

let dir: string;
let sandbox: SandboxHandle;
let receiver: NotificationReceiver;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lendbot-digest-'));
  sandbox = await startSandbox({ manualClock: true, seed: 7, arrivalsPerHour: 0 });
  receiver = await startNotificationReceiver();
});
afterEach(async () => {
  await receiver.close();
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A daemon on the test's file and clock with only the digest to do; `stop` closes its store too. */
async function startDaemon(clock: ManualClock): Promise<{ daemon: Daemon; store: Store; stop(): Promise<void> }> {
  const path = join(dir, 'lendbot.db');
  const store = openStore(path);
  const config = daemonConfigSchema.parse({
    db: path,
    webhook: { host: '127.0.0.1', port: 0 },
    poll: { schedule: 'off', at_start: false },
    jobs: { balance_refresh: 'off', reconcile: 'off', fund_accepted: 'off', protections: 'off' },
    risk: { max_open_exposure: null, max_per_borrower: null, max_amount_per_day: null },
    notifications: { digest: 'day', retries: 0 },
  });
  const daemon = await createDaemon(
    config,
    { LENDBOT_NOTIFY_URL: receiver.url },
    {
      client: clientFor(sandbox, { daemonRetries: true }),
      clock,
      store,
      log: captureLog().log,
      webhookSecret: sandbox.credentials.webhookSecret,
    },
  );
  await daemon.start();
  return {
    daemon,
    store,
    async stop() {
      await daemon.stop();
      store.close();
    },
  };
}

const days = () => receiver.received.filter((body) => body.event === 'digest').map((body) => String(body.data.from).slice(0, 10));

describe('the daemon digest', () => {
  it('sends every day once, in order, across two failed deliveries and a restart across three day boundaries', async () => {
    const clock = new ManualClock('2026-03-10T12:00:00Z');
    let running = await startDaemon(clock);
    await running.daemon.runJob('digest');
    receiver.failNext(2);
    clock.advance(DAY_MS);
    await running.daemon.runJob('digest');
    clock.advance(DAY_MS);
    await running.daemon.runJob('digest');
    expect(days()).toEqual([]);
    await running.stop();

    clock.advance(3 * DAY_MS);
    running = await startDaemon(clock);
    await running.daemon.runJob('digest');
    await running.daemon.runJob('digest');
    expect(days()).toEqual(['2026-03-10', '2026-03-11', '2026-03-12', '2026-03-13', '2026-03-14']);
    await running.stop();

    running = await startDaemon(clock);
    clock.advance(DAY_MS);
    await running.daemon.runJob('digest');
    await running.stop();
    expect(days()).toEqual(['2026-03-10', '2026-03-11', '2026-03-12', '2026-03-13', '2026-03-14', '2026-03-15']);
  }, 30_000);
});
