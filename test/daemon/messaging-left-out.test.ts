/**
 * Messaging is a wing (issue 38, item 2): the daemon decides and places with it left out. Both
 * runs below have the same `notifications:` section pointing at a real receiver and the same
 * sandbox; the second leaves messaging unattached (DaemonOverrides.messaging = false, what deleting
 * its attach line in src/daemon/daemon.ts does). It still turns a webhook and a poll into guarded
 * offers, while nothing is notified and no messaging job exists.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startNotificationReceiver, type NotificationReceiver } from '../messaging/notification-receiver.js';
import { offerHookedAndPolled, startDaemonHarness, type DaemonHarness } from './daemon-harness.js';

let harness: DaemonHarness | undefined;
let receiver: NotificationReceiver;
beforeEach(async () => {
  receiver = await startNotificationReceiver();
});
afterEach(async () => {
  await harness?.close();
  harness = undefined;
  await receiver.close();
});

describe('the daemon with messaging left out', () => {
  it('with messaging attached, the same run notifies the offers (the control)', async () => {
    harness = await startDaemonHarness({ notifications: { url: receiver.url, retries: 0 } });
    // The first check sets the cursor at now; offers after it are told at the next.
    await harness.daemon.runJob('notify');
    harness.sandbox.control.advance(1000);
    await offerHookedAndPolled(harness);
    await harness.daemon.runJob('notify');
    await expect.poll(() => receiver.received.filter((body) => body.event === 'offer_placed').length).toBe(2);
  });

  it('decides and places from a webhook and a poll, and notifies nothing', async () => {
    harness = await startDaemonHarness({ notifications: { url: receiver.url, retries: 0 }, messaging: false });
    harness.sandbox.control.advance(1000);
    await offerHookedAndPolled(harness);
    await expect(harness.daemon.runJob('notify')).rejects.toThrow(/no job "notify"/);
    await expect(harness.daemon.runJob('digest')).rejects.toThrow(/no job "digest"/);
    // The parts built first still notify through the relay: a notice with nowhere to go is dropped, not thrown.
    await harness.daemon.runJob('idle-cash');
    // Give a wrongly sent notification time to arrive before saying none came.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(receiver.received).toEqual([]);
  });
});
