/**
 * Notifications to a chat are paced and grouped (issue 36, item 5: about 77 "Offer placed"
 * messages once came in one burst, over Telegram's per-chat limit). Against the fixture Bot API,
 * which holds each chat to Telegram's limits (one message a second, 20 a minute) on a simulated
 * clock and refuses 429 beyond them, as the real API does; the outbox waits on the same clock
 * (its sleep moves it), so a minute of pacing takes no real minute. Real SQLite store, the real
 * notification watcher, notifier and Telegram format.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock, type Sleep } from '../../src/clock/clock.js';
import { ChatOutbox } from '../../src/messaging/chat-pace/chat-outbox.js';
import { chatPaceSchema, paceLimits } from '../../src/messaging/chat-pace/chat-pace-config.js';
import { pacedNotifier } from '../../src/messaging/chat-pace/paced-notifier.js';
import { SendWindows } from '../../src/messaging/chat-pace/send-windows.js';
import { NotificationWatcher, NOTIFY_CURSOR_KEY } from '../../src/messaging/notification-watcher.js';
import { notificationsSchema } from '../../src/messaging/notifications-config.js';
import { notifierFromConfig } from '../../src/messaging/notifier.js';
import { buildStatusReport } from '../../src/ops/status-report.js';
import { DEFAULT_RISK_LIMITS } from '../../src/risk/index.js';
import type { Store } from '../../src/store/index.js';
import { captureLog } from '../log/log-capture.js';
import { loanRequest, tempStore } from '../store/fixtures.js';
import { BOT_TOKEN, startBotFixture, type BotFixture } from './telegram-bot-fixture.js';
import { LENDER, startCommandPoller } from './telegram-commands-harness.js';

const CHAT = '424242';
const MINUTE = 60_000;
const TELEGRAM_LIMITS = { minGapMs: 1000, perMinute: 20 };

let clock: ManualClock;
let bot: BotFixture;
let store: Store;
let cleanup: () => void;
const { log, lines } = captureLog('debug');

/** Waits on the simulated clock: moves it, and lets the event loop turn (the HTTP exchanges are real). */
const simulatedSleep: Sleep = async (ms) => {
  clock.advance(ms);
  await new Promise((resolve) => setImmediate(resolve));
};

beforeEach(async () => {
  clock = new ManualClock('2026-03-10T12:00:00.000Z');
  bot = await startBotFixture({ limits: { clock, ...TELEGRAM_LIMITS } });
  ({ store, cleanup } = tempStore());
  lines.length = 0;
});

afterEach(async () => {
  await bot.close();
  cleanup();
});

/** The daemon's notifier for a Telegram chat (the section's `pace` over the defaults), paced on the simulated clock. */
function telegramNotifier(pace: Record<string, unknown> = {}): ChatOutbox {
  const section = notificationsSchema.parse({ format: 'telegram', telegram_api_url: bot.origin, retries: 0, pace });
  const env = { LENDBOT_TELEGRAM_BOT_TOKEN: BOT_TOKEN, LENDBOT_TELEGRAM_CHAT_ID: CHAT };
  const windows = new SendWindows({ limits: paceLimits(section.pace), clock, sleep: simulatedSleep });
  const notifier = pacedNotifier(notifierFromConfig(section, env, { clock, log }), section.pace, windows, log);
  if (!(notifier instanceof ChatOutbox)) throw new Error('a Telegram notifier is paced');
  return notifier;
}

/** Resolves once the outbox has nothing waiting and the last message is answered. */
async function drained(outbox: ChatOutbox, messages: number): Promise<void> {
  await bot.waitForSent(messages);
  while (outbox.waiting > 0) await new Promise((resolve) => setTimeout(resolve, 5));
}

let nextRequest = 5000;
/** `count` offers placed now, as the placer leaves them, rates 10 % up by 0.1 point each. */
function placeOffers(count: number): void {
  for (let i = 0; i < count; i += 1) {
    const intent = store.offers.createIntent({
      request: loanRequest({ id: nextRequest++, riskLevel: i % 3, totalAmount: '100.00' }),
      rate: 0.1 + i / 1000,
      automateFund: true,
      dryRun: false,
      atMs: clock.now(),
    });
    if (!intent.created) throw new Error('offer existed');
    store.offers.setState(intent.offer.id, 'placed', clock.now());
  }
}

/** Largest number of messages in any 60 s, and the shortest gap between two. */
function pace(sent: ReadonlyArray<{ atMs?: number }>): { maxPerMinute: number; minGapMs: number } {
  const times = sent.map((message) => message.atMs ?? Number.NaN);
  let maxPerMinute = 0;
  let minGapMs = Number.POSITIVE_INFINITY;
  for (const [index, at] of times.entries()) {
    maxPerMinute = Math.max(maxPerMinute, times.filter((other) => other >= at && other < at + MINUTE).length);
    const previous = times[index - 1];
    if (previous !== undefined) minGapMs = Math.min(minGapMs, at - previous);
  }
  return { maxPerMinute, minGapMs };
}

describe('notifications to a chat', () => {
  it('77 offers placed between two checks: one message saying so, with the amount, the rates and the first requests', async () => {
    const outbox = telegramNotifier();
    store.state.set(NOTIFY_CURSOR_KEY, new Date(clock.now() - 1).toISOString(), clock.now());
    clock.advance(1000);
    placeOffers(77);
    const status = () => buildStatusReport({ store, nowMs: clock.now(), limits: DEFAULT_RISK_LIMITS, budgets: [], dryRun: false });
    const watcher = new NotificationWatcher({ store, clock, notifier: outbox, status });
    expect(await watcher.check()).toBe(77);
    await drained(outbox, 1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(bot.sent).toHaveLength(1);
    expect(bot.tooMany).toBe(0);
    const text = bot.sent[0]?.text ?? '';
    expect(text.split('\n').slice(0, 6)).toEqual([
      'ℹ️ 77 offers placed',
      'Loan requests: 5000, 5001, 5002, 5003, 5004 and 72 more',
      'Amount: $7,700.00',
      'Lowest rate: 10 %',
      'Highest rate: 17.6 %',
      'By risk level: 26 at 0, 26 at 1, 25 at 2',
    ]);
  });

  it('one offer alone is told as before; offers coming while the chat waits its turn join the next message', async () => {
    const outbox = telegramNotifier();
    void outbox.notify('offer_placed', { loan_request_id: 1, rate: 0.2, total_amount_cents: 10_000, risk_level: 1 });
    await drained(outbox, 1);
    // The chat's second is not over: these wait for the next turn together.
    for (const id of [2, 3, 4]) void outbox.notify('offer_placed', { loan_request_id: id, rate: 0.2, total_amount_cents: 10_000 });
    void outbox.notify('offer_funded', { loan_request_id: 1, rate: 0.2, total_amount_cents: 10_000 });
    await drained(outbox, 3);
    expect(bot.sent.map((message) => message.text.split('\n')[0])).toEqual([
      'ℹ️ Offer placed on loan request 1',
      'ℹ️ 3 offers placed',
      '✅ Offer funded on loan request 1',
    ]);
    expect(bot.sent.map((message) => message.atMs! - clock.now())).toEqual([-2000, -1000, 0]);
  });

  it('45 messages that cannot be grouped: all delivered, at least a second apart and at most 20 in any minute, none refused', async () => {
    const outbox = telegramNotifier();
    for (let loan = 1; loan <= 45; loan += 1) void outbox.notify('payment_late', { loan_id: loan, delayed_days: 3 });
    const started = clock.now();
    await drained(outbox, 45);
    expect(bot.tooMany).toBe(0);
    expect(pace(bot.sent)).toEqual({ maxPerMinute: 20, minGapMs: 1000 });
    expect(bot.sent.map((message) => /Payment late on loan (\d+)/.exec(message.text)?.[1])).toEqual(
      Array.from({ length: 45 }, (_, i) => String(i + 1)),
    );
    // 45 at 20 a minute: the last goes in the third minute.
    expect(clock.now() - started).toBe(2 * MINUTE + 4000);
  });

  it('the limits are settings: 1 message every 3 s and 5 a minute', async () => {
    const outbox = telegramNotifier({ min_seconds_between: 3, per_minute: 5 });
    for (let loan = 1; loan <= 12; loan += 1) void outbox.notify('loan_late', { loan_id: loan });
    await drained(outbox, 12);
    expect(pace(bot.sent)).toEqual({ maxPerMinute: 5, minGapMs: 3000 });
    expect(bot.tooMany).toBe(0);
  });

  it('memory stays bounded: beyond queue_limit a message is counted, not kept, and the next one sent says how many', async () => {
    const outbox = telegramNotifier({ queue_limit: 10 });
    expect(await outbox.notify('offer_placed', { loan_request_id: 1, total_amount_cents: 10_000 })).toBe('queued');
    const results = [];
    for (let loan = 1; loan <= 5000; loan += 1) results.push(await outbox.notify('payment_missed', { loan_id: loan }));
    expect(outbox.waiting).toBe(10);
    expect(results.filter((result) => result === 'queued')).toHaveLength(9);
    expect(results.filter((result) => result === 'failed')).toHaveLength(4991);
    // Offers join the group already waiting: the queue is full, yet they are told.
    for (const id of [2, 3, 4])
      expect(await outbox.notify('offer_placed', { loan_request_id: id, total_amount_cents: 10_000 })).toBe('queued');
    expect(outbox.waiting).toBe(10);
    await drained(outbox, 10);
    expect(bot.sent).toHaveLength(10);
    expect(bot.sent[0]?.text.split('\n')).toEqual([
      'ℹ️ 4 offers placed',
      'Loan requests: 1, 2, 3, 4',
      'Amount: $400.00',
      'Not sent: 4991 earlier notifications (too many at once): 4991 payment missed',
      'lendbot · 2026-03-10 12:00 UTC',
    ]);
    expect(bot.sent.slice(1).some((message) => message.text.includes('Not sent'))).toBe(false);
    expect(lines.some((line) => line.msg === 'notifications left out: too many waited for the chat')).toBe(true);
  });

  it('the digest is told only once delivered: a chat refusing it gets "failed", so the period is tried again', async () => {
    const outbox = telegramNotifier();
    await bot.close();
    expect(await outbox.notifyDelivered('digest', { period: 'day', net_earned_cents: 0 })).toBe('failed');
    bot = await startBotFixture({ limits: { clock, ...TELEGRAM_LIMITS } });
  });
});

describe('answers to Telegram commands', () => {
  it('take their turn in the chat the notifications write to: together they stay within its limit', async () => {
    const section = notificationsSchema.parse({ format: 'telegram', telegram_api_url: bot.origin, retries: 0 });
    const windows = new SendWindows({ limits: paceLimits(section.pace), clock, sleep: simulatedSleep });
    const env = { LENDBOT_TELEGRAM_BOT_TOKEN: BOT_TOKEN, LENDBOT_TELEGRAM_CHAT_ID: String(LENDER) };
    const outbox = pacedNotifier(notifierFromConfig(section, env, { clock, log }), section.pace, windows, log) as ChatOutbox;
    const poller = startCommandPoller({ store, bot, log, clock, windows });
    try {
      for (let loan = 1; loan <= 20; loan += 1) void outbox.notify('payment_late', { loan_id: loan });
      await drained(outbox, 20);
      const first = bot.sent[0]?.atMs ?? 0;
      bot.say(LENDER, '/help');
      await bot.waitForSent(21);
      expect(bot.sent[20]?.text).toContain('Commands:');
      // The chat had its 20 messages of the minute: the answer waited for the minute to pass.
      expect(bot.sent[20]?.atMs).toBe(first + MINUTE);
      expect(bot.tooMany).toBe(0);
    } finally {
      await poller.stop();
    }
  });
});

describe('notifications.pace', () => {
  it('defaults to Telegram’s per-chat limits and refuses values that would break them', () => {
    expect(chatPaceSchema.parse({})).toEqual({ min_seconds_between: 1, per_minute: 20, queue_limit: 50 });
    expect(notificationsSchema.parse({}).pace).toEqual({ min_seconds_between: 1, per_minute: 20, queue_limit: 50 });
    expect(chatPaceSchema.safeParse({ per_minute: 0 }).success).toBe(false);
    expect(chatPaceSchema.safeParse({ queue_limit: 0 }).success).toBe(false);
    expect(chatPaceSchema.safeParse({ min_seconds_between: -1 }).success).toBe(false);
    expect(chatPaceSchema.safeParse({ burst: 3 }).success).toBe(false);
  });

  it('a json target is not paced: a program reads one document per event', () => {
    const section = notificationsSchema.parse({ format: 'json' });
    const windows = new SendWindows({ limits: paceLimits(section.pace), clock, sleep: simulatedSleep });
    const notifier = pacedNotifier(
      notifierFromConfig(section, { LENDBOT_NOTIFY_URL: 'http://127.0.0.1:9/hook' }, { clock, log }),
      section.pace,
      windows,
      log,
    );
    expect(notifier).toBeDefined();
    expect(notifier).not.toBeInstanceOf(ChatOutbox);
  });
});

describe("a chat's turn at exit", () => {
  it('a process whose messages wait for the chat ends anyway (the daemon never waits for a chat to stop)', async () => {
    // Two turns a minute apart in a child process: a wait that held the process open would keep it a minute.
    const script = [
      "import { systemClock, sleepNotHoldingExit } from './src/clock/clock.ts';",
      "import { SendWindows } from './src/messaging/chat-pace/send-windows.ts';",
      'const windows = new SendWindows({ limits: { minGapMs: 60_000, perMinute: 20 }, clock: systemClock, sleep: sleepNotHoldingExit });',
      "await windows.take('chat');",
      "void windows.take('chat').then(() => console.log('second turn'));",
      "console.log('first turn');",
    ].join('\n');
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
      timeout: 30_000,
    });
    // Ended by itself (execFile's timeout kills and fails a child still running after 30 s), without the second turn.
    expect(stdout).toBe('first turn\n');
  }, 40_000);
});
