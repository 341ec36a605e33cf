/**
 * The idle-cash check as the cash-flow wing attaches it (src/cash-flow/attach-cash-flow.ts): a job of its own (every five minutes
 * live, every five seconds on a simulated clock) whose alert goes out through the configured
 * notifier to a real HTTP receiver, after the set hours of an injected clock and not before.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock, systemClock } from '../../src/clock/clock.js';
import { attachCashFlow, type CashFlowParts } from '../../src/cash-flow/attach-cash-flow.js';
import { notifierFromConfig } from '../../src/messaging/notifier.js';
import { notificationsSchema } from '../../src/messaging/notifications-config.js';
import { NoticeRelay } from '../../src/daemon/notice-relay.js';
import { riskLimitsSchema } from '../../src/risk/index.js';
import { captureLog } from '../log/log-capture.js';
import { tempStore } from '../store/fixtures.js';
import { startNotificationReceiver, type NotificationReceiver } from '../messaging/notification-receiver.js';

const HOUR = 3_600_000;
const limits = riskLimitsSchema.parse({ protections: { idle_cash: { max_idle_share: 0.5, for_hours: 2 } } });

let h: ReturnType<typeof tempStore>;
let receiver: NotificationReceiver;
beforeEach(async () => {
  h = tempStore();
  receiver = await startNotificationReceiver();
  // All the money idle: a deposit and nothing lent.
  h.store.account.replaceTransfers(
    [{ date: '2026-03-01', transactions: [{ transfer_status: 'processed', transfer_type: 'Deposit', transfer_amount: '1000.00' }] }],
    Date.parse('2026-03-01T00:00:00Z'),
  );
});
afterEach(async () => {
  await receiver.close();
  h.cleanup();
});

function operations(clock: ManualClock, clockSpeed: number, realClock?: ManualClock) {
  const { log } = captureLog();
  const notifications = notificationsSchema.parse({ url: receiver.url, retries: 0 });
  const store = h.store;
  // As the daemon wires it: the alert goes through the notice relay messaging points at its notifier.
  const notices = new NoticeRelay();
  notices.sendTo(notifierFromConfig(notifications, {}, { clock, log }));
  const parts: CashFlowParts = {
    log,
    store,
    dryRun: false,
    clocks: { market: clock, real: realClock ?? systemClock, speed: clockSpeed },
    active: { limits: () => limits },
    instruments: { notices },
  };
  return attachCashFlow(parts);
}

describe('the idle-cash job', () => {
  it('runs every five minutes live, every five seconds on a simulated clock', () => {
    const clock = new ManualClock('2026-03-10T12:00:00Z');
    expect(operations(clock, 1).jobs.find((job) => job.name === 'idle-cash')?.schedule).toBe('*/5 * * * *');
    expect(operations(clock, 86_400).jobs.find((job) => job.name === 'idle-cash')?.schedule).toBe('*/5 * * * * *');
  });

  it('notifies idle_cash once the share stayed above the threshold for the set hours', async () => {
    const clock = new ManualClock('2026-03-10T12:00:00Z');
    const job = operations(clock, 1).jobs.find((candidate) => candidate.name === 'idle-cash');
    if (job === undefined) throw new Error('no idle-cash job');
    await job.run();
    clock.advance(HOUR);
    await job.run();
    // Give a wrongly sent notification time to arrive before saying none came.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(receiver.received).toEqual([]);
    clock.advance(HOUR);
    await job.run();
    await expect.poll(() => receiver.received.map((body) => body.event)).toEqual(['idle_cash']);
    expect(receiver.received[0]?.data).toMatchObject({ idle_cents: 100_000, since: '2026-03-10T12:00:00.000Z' });
  });

  it("on a sped-up clock (the sandbox) also waits the set hours of the machine's own time", async () => {
    const clock = new ManualClock('2026-03-10T12:00:00Z');
    const wall = new ManualClock('2026-11-26T09:00:00Z');
    const job = operations(clock, 86_400, wall).jobs.find((candidate) => candidate.name === 'idle-cash');
    if (job === undefined) throw new Error('no idle-cash job');
    await job.run();
    // Five simulated days in five seconds, checked each second: true on the run's clock, but no one could have acted.
    for (let second = 0; second < 5; second += 1) {
      clock.advance(24 * HOUR);
      wall.advance(1000);
      await job.run();
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(receiver.received).toEqual([]);
    // Two hours of the machine's time with the money still idle: told once, with the run's time.
    wall.advance(2 * HOUR);
    clock.advance(HOUR);
    await job.run();
    await expect.poll(() => receiver.received.map((body) => body.event)).toEqual(['idle_cash']);
    expect(receiver.received[0]?.data).toMatchObject({ since: '2026-03-10T12:00:00.000Z' });
  });
});
