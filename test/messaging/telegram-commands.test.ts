/**
 * Telegram commands end to end: the poller long-polls a fixture server speaking the Bot API, on
 * a real store. From the allowed chat, /status answers `lendbot status`'s figures, /pause and
 * /resume change the pause the guard reads, /approve and /reject decide an agent's proposal as
 * `lendbot approve` does; a stranger's chat gets no answer and is logged; an old command is not
 * obeyed; after failures the poller backs off, one call in flight, and never logs the token; a
 * restart does not obey a command twice. Last, the daemon itself wires it from its config.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock, systemClock } from '../../src/clock/clock.js';
import { createDaemon } from '../../src/daemon/daemon.js';
import { daemonConfigSchema } from '../../src/daemon/daemon-config.js';
import { freePort } from '../../src/daemon/free-port.js';
import { notificationsSchema } from '../../src/messaging/notifications-config.js';
import { Protections, protectionSettingsSchema, storedPause } from '../../src/ops/protections/index.js';
import { TELEGRAM_OFFSET_KEY, type TelegramCommandPoller } from '../../src/messaging/telegram-commands/telegram-command-poller.js';
import { telegramCommandsFromConfig } from '../../src/messaging/telegram-commands/telegram-commands-setup.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { openStore, type Store } from '../../src/store/index.js';
import { waitFor } from '../daemon/daemon-harness.js';
import { captureLog } from '../log/log-capture.js';
import { clientFor } from '../sandbox/sandbox-fixture.js';
import { tempStore } from '../store/fixtures.js';
import { seedStatusData } from '../ops/status-fixtures.js';
import { BOT_TOKEN, startBotFixture, type BotFixture } from './telegram-bot-fixture.js';
import { COMMANDS_ENV, LENDER, startCommandPoller } from './telegram-commands-harness.js';

const STRANGER = 666;
const NOW = Date.parse('2026-03-10T12:00:00.000Z');
const env = COMMANDS_ENV;

let h: ReturnType<typeof tempStore>;
let store: Store;
let bot: BotFixture;
let poller: TelegramCommandPoller | undefined;
let captured: ReturnType<typeof captureLog>;
const clock = new ManualClock(NOW);

beforeEach(async () => {
  h = tempStore();
  store = h.store;
  seedStatusData(store, { decisions: 30, nowMs: NOW });
  bot = await startBotFixture();
  captured = captureLog('debug');
});
afterEach(async () => {
  await poller?.stop();
  poller = undefined;
  await bot.close();
  h.cleanup();
});

function start(commands: Record<string, unknown> = {}): TelegramCommandPoller {
  poller = startCommandPoller({ store, bot, log: captured.log, clock, commands });
  return poller;
}

const lastText = () => bot.sent.at(-1)?.text ?? '';

describe('Telegram commands', () => {
  it('answers /status with the figures lendbot status shows, to the allowed chat only', async () => {
    start();
    bot.say(STRANGER, '/status');
    bot.say(LENDER, '/status@lendbot_bot');
    await bot.waitForSent(1);
    expect(bot.sent).toHaveLength(1);
    expect(bot.sent[0]?.chat_id).toBe(String(LENDER));
    // The very lines of `lendbot status` (formatStatusText) on the same store.
    expect(lastText()).toContain('balance          3300.00');
    expect(lastText()).toContain('free cash        2470.00');
    expect(lastText()).toContain('offers today     2 (no cap)');
    // In a fixed-width block, so the columns stay aligned in the chat.
    expect(bot.sent[0]?.html).toMatch(/^<pre>as of {12}2026-03-10T12:00:00\.000Z\n[\s\S]*<\/pre>$/);
    const refused = captured.lines.find((line) => line.msg === 'Telegram command from a chat not allowed: ignored, not answered');
    expect(refused).toMatchObject({ chatId: String(STRANGER) });
  });

  it('pauses and resumes new offers through the protections, as the dashboard does', async () => {
    start();
    bot.say(LENDER, '/pause going on holiday');
    await bot.waitForSent(1);
    expect(lastText()).toBe('New offers paused. Send /resume to allow them again.');
    expect(storedPause(store.state, clock.now())?.reason).toBe(
      'paused by Telegram (lender): going on holiday; until someone resumes offers (the dashboard, Telegram /resume, lendbot resume or an agent)',
    );
    bot.say(STRANGER, '/resume');
    bot.say(LENDER, '/resume');
    await bot.waitForSent(2);
    expect(lastText()).toBe('New offers allowed again (the operator pause is lifted).');
    expect(storedPause(store.state, clock.now())).toBeUndefined();
  });

  it("approves and rejects an agent's proposal as lendbot approve does", async () => {
    const base = {
      tokenName: 'claude',
      rate: 0.2,
      automateFund: true,
      amountCents: 52_000,
      riskLevel: 1,
      explanation: {},
      createdAtMs: Date.now(),
      expiresAtMs: Date.now() + 600_000,
    };
    const first = store.proposals.propose({ ...base, loanRequestId: 1001, request: { id: 1001 } });
    const second = store.proposals.propose({ ...base, loanRequestId: 1002, request: { id: 1002 } });
    start();
    bot.say(LENDER, `/approve ${first.id}`);
    await bot.waitForSent(1);
    expect(lastText()).toMatch(new RegExp(`^approved proposal ${first.id}: `));
    expect(store.proposals.get(first.id)).toMatchObject({ status: 'approved', decidedBy: 'telegram:lender' });
    bot.say(LENDER, `/reject ${second.id}`);
    bot.say(LENDER, `/approve ${second.id}`);
    bot.say(LENDER, '/approve soon');
    await bot.waitForSent(4);
    expect(store.proposals.get(second.id)).toMatchObject({ status: 'rejected', decidedBy: 'telegram:lender' });
    expect(bot.sent[2]?.text).not.toMatch(/^approved/);
    expect(bot.sent[3]?.text).toBe('Say which proposal: /approve 12');
  });

  it('answers /profit from the digest figures and anything else with the list of commands', async () => {
    start();
    bot.say(LENDER, '/profit');
    bot.say(LENDER, 'hello');
    await bot.waitForSent(2);
    expect(bot.sent[0]?.text).toContain("Last 30 days by the run's clock");
    expect(bot.sent[0]?.text).toContain('Interest: $12.34');
    expect(bot.sent[1]?.text).toContain('/approve ID');
  });

  it('does not obey a command sent long ago, and never obeys one twice across a restart', async () => {
    start();
    bot.say(LENDER, '/pause', Date.now() - 20 * 60_000);
    await bot.waitForSent(1);
    expect(lastText()).toMatch(/^Not obeyed: this command was sent 20 minutes ago/);
    expect(storedPause(store.state, clock.now())).toBeUndefined();
    bot.say(LENDER, '/pause');
    await bot.waitForSent(2);
    await poller?.stop();
    const offset = store.state.get(TELEGRAM_OFFSET_KEY);
    expect(Number(offset)).toBeGreaterThan(500);
    start();
    bot.say(LENDER, '/status');
    await bot.waitForSent(3);
    // The restarted poller asked from the stored offset: the /pause was not answered again.
    expect(bot.sent.map((message) => message.text.split('\n')[0])).toHaveLength(3);
    expect(bot.sent[2]?.text).toContain('balance');
  });

  it('backs off after failures, keeps one call in flight, cuts long answers and never logs the token', async () => {
    bot.failNext(2);
    start();
    bot.say(LENDER, `/pause ${'x'.repeat(4080)}`);
    bot.say(LENDER, '/pause');
    // 1 s then 2 s of back-off before the third call gets through.
    await bot.waitForSent(2, 15_000);
    // The second answer repeats the 4,080-character reason: cut to Telegram's 4,096.
    expect(bot.sent[1]?.text).toHaveLength(4096);
    expect(bot.sent[1]?.text.endsWith('x…')).toBe(true);
    expect(bot.polls).toBeGreaterThanOrEqual(3);
    expect(bot.maxInFlight).toBe(1);
    const failures = captured.lines.filter((line) => line.msg === 'Telegram commands: the Bot API call failed');
    expect(failures.map((line) => line.retryInMs)).toEqual([1000, 2000]);
    expect(failures[0]?.detail).toBe('getUpdates: HTTP 502 Bad Gateway');
    expect(JSON.stringify(captured.lines)).not.toContain(BOT_TOKEN.split(':')[1]);
  }, 20_000);

  it('refuses to start without format: telegram', () => {
    const section = notificationsSchema.parse({ format: 'slack', telegram_commands: { enabled: true } });
    const actions = {
      status: () => {
        throw new Error('unused');
      },
      figures: {
        figures: () => {
          throw new Error('unused');
        },
      },
      nowMs: () => NOW,
      protections: new Protections({ store, clock, log: captured.log, settings: () => protectionSettingsSchema.parse({}) }),
    };
    expect(() =>
      telegramCommandsFromConfig(section, env, {
        actions,
        state: store.state,
        updates: store.telegramUpdates,
        realClock: systemClock,
        log: captured.log,
      }),
    ).toThrow(
      'notifications.telegram_commands.enabled needs notifications.format: telegram (the commands use its bot): see docs/operations.md#telegram-commands',
    );
  });
});

describe('the daemon with Telegram commands on', () => {
  it('answers /pause, wired from its config: the pause the guard reads is stored', async () => {
    const sandbox = await startSandbox({ manualClock: true, seed: 7 });
    const dir = mkdtempSync(join(tmpdir(), 'lendbot-telegram-'));
    const daemonStore = openStore(join(dir, 'lendbot.db'));
    const config = daemonConfigSchema.parse({
      db: join(dir, 'lendbot.db'),
      webhook: { host: '127.0.0.1', port: await freePort() },
      ops: { port: 0 },
      poll: { schedule: 'off', at_start: false },
      jobs: { balance_refresh: 'off', reconcile: 'off', fund_accepted: 'off', protections: 'off' },
      risk: { max_open_exposure: null, max_per_borrower: null, max_amount_per_day: null },
      notifications: { format: 'telegram', telegram_api_url: bot.origin, telegram_commands: { enabled: true, poll_timeout_seconds: 1 } },
    });
    const daemon = await createDaemon(config, env, {
      client: clientFor(sandbox, { daemonRetries: true }),
      clock: sandbox.clock,
      store: daemonStore,
      log: captured.log,
      webhookSecret: sandbox.credentials.webhookSecret,
    });
    try {
      await daemon.start();
      bot.say(LENDER, '/pause');
      await bot.waitForSent(1);
      await waitFor(() => storedPause(daemonStore.state, sandbox.clock.now()) !== undefined, 'the pause to be stored');
      expect(storedPause(daemonStore.state, sandbox.clock.now())?.kind).toBe('operator');
    } finally {
      await daemon.stop();
      await sandbox.close();
      daemonStore.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
