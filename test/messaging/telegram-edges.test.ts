/**
 * Telegram commands under attack (issue 37, item 4), against the fixture Bot API on a real store:
 * a replayed update id is never obeyed twice, across a restart; a command naming another bot is
 * ignored; a command dated in the future is refused; the bot token never reaches the log, even
 * when the API's error text quotes the request's path; a huge getUpdates answer is not read
 * whole; a huge message is refused and logs a few characters, not its text.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/clock.js';
import { storedPause } from '../../src/ops/protections/index.js';
import { UPDATES_ANSWER_LIMIT } from '../../src/messaging/telegram-commands/telegram-bot-api.js';
import type { TelegramCommandPoller } from '../../src/messaging/telegram-commands/telegram-command-poller.js';
import type { Store } from '../../src/store/index.js';
import { waitFor } from '../daemon/daemon-harness.js';
import { captureLog } from '../log/log-capture.js';
import { tempStore } from '../store/fixtures.js';
import { BOT_TOKEN, startBotFixture, type BotFixture } from './telegram-bot-fixture.js';
import { LENDER, startCommandPoller } from './telegram-commands-harness.js';

const NOW = Date.parse('2026-03-10T12:00:00.000Z');
const SECRET = BOT_TOKEN.split(':')[1] ?? '';

let h: ReturnType<typeof tempStore>;
let store: Store;
let bot: BotFixture;
let poller: TelegramCommandPoller | undefined;
let captured: ReturnType<typeof captureLog>;
const clock = new ManualClock(NOW);

beforeEach(async () => {
  h = tempStore();
  store = h.store;
  bot = await startBotFixture();
  captured = captureLog('debug');
});
afterEach(async () => {
  await poller?.stop();
  poller = undefined;
  await bot.close();
  h.cleanup();
});

function start(): TelegramCommandPoller {
  poller = startCommandPoller({ store, bot, log: captured.log, clock });
  return poller;
}

const lines = (msg: string) => captured.lines.filter((line) => line.msg === msg);

describe('Telegram commands under attack', () => {
  it('never obeys a replayed update id, before or after a restart', async () => {
    start();
    bot.say(LENDER, '/pause first');
    await bot.waitForSent(1);
    const [pauseId] = bot.updateIds;
    // The lender resumes; then the old /pause comes back with its id, twice.
    bot.say(LENDER, '/resume');
    await bot.waitForSent(2);
    bot.replay(pauseId ?? 0);
    bot.say(LENDER, '/status');
    await bot.waitForSent(3);
    expect(storedPause(store.state, clock.now())).toBeUndefined();

    await poller?.stop();
    const polls = bot.polls;
    start();
    // The new poller's first call is waiting: the replay goes to it.
    await waitFor(() => bot.polls > polls, 'the restarted poller to ask');
    bot.replay(pauseId ?? 0);
    bot.say(LENDER, '/profit');
    await bot.waitForSent(4);
    expect(storedPause(store.state, clock.now())).toBeUndefined();
    expect(bot.sent.map((message) => message.text.split('\n')[0]?.slice(0, 20))).toEqual([
      'New offers paused. S',
      'New offers allowed a',
      'as of            202',
      'Last 30 days by the ',
    ]);
    expect(lines('Telegram update already handled: ignored (a replay)')).toEqual([
      expect.objectContaining({ updateId: pauseId }),
      expect.objectContaining({ updateId: pauseId }),
    ]);
  });

  it('ignores a command addressed to another bot, and obeys one addressed to itself', async () => {
    start();
    bot.say(LENDER, '/pause@other_bot going away');
    bot.say(LENDER, '/status@LendBot_Bot');
    await bot.waitForSent(1);
    expect(bot.sent[0]?.text).toContain('balance');
    expect(storedPause(store.state, clock.now())).toBeUndefined();
    expect(lines('Telegram command addressed to another bot: ignored, not answered')).toEqual([
      expect.objectContaining({ command: '/pause@other_bot' }),
    ]);
  });

  it('refuses a command dated in the future beyond a minute, and obeys one a few seconds ahead', async () => {
    start();
    bot.say(LENDER, '/pause from the future', Date.now() + 10 * 60_000);
    await bot.waitForSent(1);
    expect(bot.sent[0]?.text).toMatch(/^Not obeyed: this command is dated \d+ s ahead of lendbot's clock\./);
    expect(storedPause(store.state, clock.now())).toBeUndefined();
    bot.say(LENDER, '/pause', Date.now() + 5_000);
    await bot.waitForSent(2);
    expect(bot.sent[1]?.text).toBe('New offers paused. Send /resume to allow them again.');
  });

  it('never logs the token, even when the API quotes the request path in its error', async () => {
    bot.describeNext(404, 'Not Found: method {path} does not exist');
    start();
    await waitFor(() => lines('Telegram commands: the Bot API call failed').length > 0, 'the failure to be logged');
    expect(lines('Telegram commands: the Bot API call failed')[0]?.detail).toBe(
      'getUpdates: HTTP 404 Not Found: method /bot[redacted]/getUpdates does not exist',
    );
    bot.describeNext(200, 'Unauthorized: {path}');
    await waitFor(() => lines('Telegram commands: the Bot API call failed').length > 1, 'the second failure to be logged', 10_000);
    expect(lines('Telegram commands: the Bot API call failed')[1]?.detail).toBe('getUpdates: Unauthorized: /bot[redacted]/getUpdates');
    expect(JSON.stringify(captured.lines)).not.toContain(SECRET);
  }, 15_000);

  it('stops reading a getUpdates answer past its limit, and carries on', async () => {
    bot.streamNext(40 * 1024 * 1024);
    start();
    await waitFor(() => lines('Telegram commands: the Bot API call failed').length > 0, 'the failure to be logged');
    expect(lines('Telegram commands: the Bot API call failed')[0]?.detail).toBe(
      `getUpdates: the answer is larger than ${UPDATES_ANSWER_LIMIT} bytes; not read`,
    );
    // The client hung up near the limit: the fixture could not write the 40 MB.
    expect(bot.streamed).toBeLessThan(UPDATES_ANSWER_LIMIT + 8 * 1024 * 1024);
    bot.say(LENDER, '/pause');
    await bot.waitForSent(1, 10_000);
    expect(bot.sent[0]?.text).toBe('New offers paused. Send /resume to allow them again.');
  }, 15_000);

  it('refuses a message longer than Telegram allows, logging a few characters of it', async () => {
    start();
    const reason = 'y'.repeat(200_000);
    bot.say(LENDER, `/pause${reason}`);
    await bot.waitForSent(1);
    expect(bot.sent[0]?.text).toBe('Not obeyed: the message is longer than 4096 characters. Send the command alone.');
    expect(storedPause(store.state, clock.now())).toBeUndefined();
    expect(JSON.stringify(captured.lines).length).toBeLessThan(10_000);
    expect(lines('Telegram command answered')[0]).toMatchObject({ command: `/pause${'y'.repeat(25)}…`, obeyed: false });
  });
});
