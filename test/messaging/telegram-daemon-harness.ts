/**
 * A daemon as `lendbot run` wires it from a config (createDaemon), writing to the fixture Bot
 * API, against a sandbox with manual time, offering on every request (offer-all); jobs run only
 * when a test calls them. For the tests of what a Telegram chat receives from a running daemon.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock, Sleep } from '../../src/clock/clock.js';
import { createDaemon, type Daemon } from '../../src/daemon/daemon.js';
import { daemonConfigSchema } from '../../src/daemon/daemon-config.js';
import { loadStrategyFile } from '../../src/engine/index.js';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/index.js';
import { openStore, type Store } from '../../src/store/index.js';
import { OFFER_ALL } from '../daemon/daemon-harness.js';
import { captureLog } from '../log/log-capture.js';
import { clientFor } from '../sandbox/sandbox-fixture.js';
import type { BotFixture } from './telegram-bot-fixture.js';
import { COMMANDS_ENV } from './telegram-commands-harness.js';

export interface TelegramDaemon {
  daemon: Daemon;
  store: Store;
  sandbox: SandboxHandle;
  /** The database file. */
  db: string;
  close(): Promise<void>;
}

export async function startTelegramDaemon(options: {
  bot: BotFixture;
  /** The `notifications:` section over telegram to the fixture. */
  notifications?: Record<string, unknown>;
  dryRun?: boolean;
  seed: number;
  balanceCents: number;
  chatPace?: { clock: Clock; sleep: Sleep };
}): Promise<TelegramDaemon> {
  const sandbox = await startSandbox({
    manualClock: true,
    seed: options.seed,
    arrivalsPerHour: 0,
    initialBalanceCents: options.balanceCents,
  });
  const dir = mkdtempSync(join(tmpdir(), 'lendbot-telegram-daemon-'));
  const db = join(dir, 'lendbot.db');
  const store = openStore(db);
  const config = daemonConfigSchema.parse({
    db,
    dry_run: options.dryRun ?? false,
    webhook: { host: '127.0.0.1', port: 0 },
    ops: { port: 0 },
    poll: { schedule: 'off', at_start: false },
    jobs: { balance_refresh: 'off', reconcile: 'off', fund_accepted: 'off', protections: 'off' },
    risk: { max_open_exposure: null, max_per_borrower: null, max_amount_per_day: null, max_offers_per_day: 100 },
    notifications: { format: 'telegram', telegram_api_url: options.bot.origin, retries: 0, ...options.notifications },
  });
  const daemon = await createDaemon(config, COMMANDS_ENV, {
    client: clientFor(sandbox, { daemonRetries: true }),
    clock: sandbox.clock,
    store,
    log: captureLog().log,
    strategies: [await loadStrategyFile(OFFER_ALL)],
    webhookSecret: sandbox.credentials.webhookSecret,
    ...(options.chatPace === undefined ? {} : { chatPace: options.chatPace }),
  });
  await daemon.start();
  return {
    daemon,
    store,
    sandbox,
    db,
    async close() {
      await daemon.stop();
      await sandbox.close();
      store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
