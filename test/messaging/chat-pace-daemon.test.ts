/**
 * The daemon as `lendbot run` wires it (createDaemon from a config), notifying a Telegram chat:
 * a poll that places a dozen offers ends in one "12 offers placed" message, not twelve (issue 36,
 * item 5), and the fixture Bot API, holding the chat to Telegram's limits, refuses nothing. The
 * pacing waits on a simulated clock given to the daemon (`chatPace`), the market on the sandbox's.
 */
import { expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/clock.js';
import { startBotFixture } from './telegram-bot-fixture.js';
import { startTelegramDaemon } from './telegram-daemon-harness.js';

it('a poll placing 12 offers tells the chat once: "12 offers placed"', async () => {
  const paceClock = new ManualClock('2026-03-10T12:00:00.000Z');
  const bot = await startBotFixture({ limits: { clock: paceClock, minGapMs: 1000, perMinute: 20 } });
  const running = await startTelegramDaemon({
    bot,
    seed: 5,
    balanceCents: 5_000_000,
    chatPace: { clock: paceClock, sleep: async (ms) => paceClock.advance(ms) },
  });
  const { daemon, sandbox, store } = running;
  try {
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
    await running.close();
    await bot.close();
  }
}, 60_000);
