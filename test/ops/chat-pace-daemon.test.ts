/**
 * The daemon as `lendbot run` wires it (createDaemon from a config), notifying a Telegram chat:
 * a poll that places a dozen offers ends in one "12 offers placed" message, not twelve (issue 36,
 * item 5), and the fixture Bot API, holding the chat to Telegram's limits, refuses nothing. The
 * pacing waits on a simulated clock given to the daemon (`chatPace`), the market on the sandbox's.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/clock.js';
import { createDaemon } from '../../src/daemon/daemon.js';
import { daemonConfigSchema } from '../../src/daemon/daemon-config.js';
import { loadStrategyFile } from '../../src/engine/index.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { openStore } from '../../src/store/index.js';
import { OFFER_ALL } from '../daemon/daemon-harness.js';
import { captureLog } from '../log/log-capture.js';
import { clientFor } from '../sandbox/sandbox-fixture.js';
import { startBotFixture } from './telegram-bot-fixture.js';
import { COMMANDS_ENV } from './telegram-commands-harness.js';

it('a poll placing 12 offers tells the chat once: "12 offers placed"', async () => {
  const paceClock = new ManualClock('2026-03-10T12:00:00.000Z');
  const bot = await startBotFixture({ limits: { clock: paceClock, minGapMs: 1000, perMinute: 20 } });
  const sandbox = await startSandbox({ manualClock: true, seed: 5, arrivalsPerHour: 0, initialBalanceCents: 5_000_000 });
  const dir = mkdtempSync(join(tmpdir(), 'lendbot-chat-pace-'));
  const store = openStore(join(dir, 'lendbot.db'));
  const config = daemonConfigSchema.parse({
    db: join(dir, 'lendbot.db'),
    webhook: { host: '127.0.0.1', port: 0 },
    poll: { schedule: 'off', at_start: false },
    jobs: { balance_refresh: 'off', reconcile: 'off', fund_accepted: 'off', protections: 'off' },
    risk: { max_open_exposure: null, max_per_borrower: null, max_amount_per_day: null, max_offers_per_day: 100 },
    notifications: { format: 'telegram', telegram_api_url: bot.origin, retries: 0 },
  });
  const daemon = await createDaemon(config, COMMANDS_ENV, {
    client: clientFor(sandbox, { daemonRetries: true }),
    clock: sandbox.clock,
    store,
    log: captureLog().log,
    strategies: [await loadStrategyFile(OFFER_ALL)],
    webhookSecret: sandbox.credentials.webhookSecret,
    chatPace: { clock: paceClock, sleep: async (ms) => paceClock.advance(ms) },
  });
  try {
    await daemon.start();
    await daemon.runJob('notify');
    sandbox.control.advance(1000);
    for (let i = 0; i < 12; i += 1) sandbox.control.createLoanRequest({ svcColor: 1, competitorOffers: 0 });
    await daemon.runJob('poll');
    expect(store.offers.listByState(['placed'])).toHaveLength(12);
    await daemon.runJob('notify');
    await bot.waitForSent(1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(bot.sent.map((message) => message.text.split('\n')[0])).toEqual(['ℹ️ 12 offers placed']);
    expect(bot.tooMany).toBe(0);
  } finally {
    await daemon.stop();
    await sandbox.close();
    await bot.close();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
