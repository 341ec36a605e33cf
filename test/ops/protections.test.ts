/**
 * Protections on a real SQLite store, on a manual clock, notifying a real HTTP receiver through
 * the daemon's notifier.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/clock.js';
import { createMetrics } from '../../src/ops/metrics.js';
import { WebhookNotifier } from '../../src/messaging/notifier.js';
import {
  isAccountRefusal,
  PAUSE_KEY,
  Protections,
  protectionSettingsSchema,
  storedPause,
  type ProtectionSettings,
} from '../../src/ops/protections/index.js';
import { buildStatusReport } from '../../src/ops/status-report.js';
import { formatStatusText, statusJson } from '../../src/ops/status-text.js';
import { DEFAULT_RISK_LIMITS } from '../../src/risk/index.js';
import { OFFER_TEXTS } from '../../src/sandbox/offer-rules.js';
import { openStore, type Store } from '../../src/store/index.js';
import { startNotificationReceiver, type NotificationReceiver } from '../messaging/notification-receiver.js';
import { captureLog } from '../log/log-capture.js';
import { loanRequest, tempStore } from '../store/fixtures.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const BORROWING = OFFER_TEXTS.borrowing;

let store: Store;
let storePath: string;
let cleanup: () => void;
let clock: ManualClock;
let settings: ProtectionSettings;
let protections: Protections;
let receiver: NotificationReceiver;
let received: NotificationReceiver['received'];
let deliveries: Array<Promise<unknown>>;

beforeEach(async () => {
  ({ store, path: storePath, cleanup } = tempStore());
  clock = new ManualClock('2026-03-10T12:00:00Z');
  settings = protectionSettingsSchema.parse({});
  deliveries = [];
  receiver = await startNotificationReceiver();
  received = receiver.received;
  const notifier = new WebhookNotifier({ url: receiver.url, clock, log: captureLog().log });
  protections = new Protections({
    store,
    clock,
    log: captureLog().log,
    settings: () => settings,
    // As the daemon wires it: fire and forget; the test keeps the promise to wait for delivery.
    notify: (event, data) => void deliveries.push(notifier.notify(event, data)),
  });
});
afterEach(async () => {
  await receiver.close();
  cleanup();
});

/** The events the receiver got, once every notification sent so far is delivered. */
async function events(): Promise<string[]> {
  await Promise.all(deliveries);
  return received.map((body) => body.event);
}

/** A loan of the lender's, created `daysAgo`, in `list`, still owing `owed` USD (default: all of it). */
function loan(id: number, daysAgo: number, list: 'current' | 'collection' | 'default', amount = 500, owed = amount) {
  const created = new Date(clock.now() - daysAgo * DAY)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, '+00:00');
  store.account.upsertLoans(
    [
      {
        id,
        loan_request_id: 5000 + id,
        borrower_card_color: 1,
        loan_amount: amount,
        interest_rate: 0.3,
        status: 'funded',
        loan_balance: owed,
        loan_paid_off: false,
        created_date: created,
      },
    ],
    list,
    clock.now(),
  );
}

describe('account refusals', () => {
  it('recognise the sandbox texts of rules 2 and 9 and plausible wordings, and no refusal of one request', () => {
    const patterns = settings.account_refusals.patterns;
    for (const text of [
      BORROWING,
      OFFER_TEXTS.noBank,
      'Investor is currently borrowing',
      'The investor has no verified bank account.',
      'Bank account not verified',
    ]) {
      expect(isAccountRefusal(text, patterns), text).toBe(true);
    }
    const perRequest = [
      OFFER_TEXTS.canceled,
      OFFER_TEXTS.signed,
      OFFER_TEXTS.acceptedOther,
      OFFER_TEXTS.alreadyOffered,
      OFFER_TEXTS.maxRate(0.3),
      OFFER_TEXTS.balance,
      OFFER_TEXTS.closed,
    ];
    for (const text of [...perRequest, undefined]) expect(isAccountRefusal(text, patterns), text).toBe(false);
  });

  it('pause offering after two within the window, notify, and lift when the pause time is over', async () => {
    protections.noteOfferRefusal(OFFER_TEXTS.signed);
    protections.noteOfferRefusal(BORROWING);
    expect(protections.activePause()).toBeUndefined();
    clock.advance(10 * MINUTE);
    protections.noteOfferRefusal(BORROWING);
    const pause = protections.activePause();
    expect(pause).toEqual({
      kind: 'account_refusal',
      reason:
        'account_refusal protection: account refused offers 2 times in 30 min: "Borrower can not offer."; paused until 2026-03-10T18:10:00.000Z or lendbot resume',
      sinceMs: clock.now(),
      untilMs: clock.now() + 6 * HOUR,
    });
    expect(await events()).toEqual(['protection_paused']);
    expect(received[0]?.data).toEqual({
      kind: 'account_refusal',
      reason: pause?.reason,
      since: '2026-03-10T12:10:00.000Z',
      until: '2026-03-10T18:10:00.000Z',
    });

    clock.advance(6 * HOUR - 1);
    expect(protections.activePause()?.kind).toBe('account_refusal');
    clock.advance(1);
    expect(protections.activePause()).toBeUndefined();
    expect(protections.activePause()).toBeUndefined();
    expect(await events()).toEqual(['protection_paused', 'protection_lifted']);
    expect(received[1]?.data).toEqual({ kind: 'account_refusal', reason: pause?.reason, why: 'its time is over' });
  });

  it('do not count refusals spread wider than the window', () => {
    protections.noteOfferRefusal(OFFER_TEXTS.noBank);
    clock.advance(31 * MINUTE);
    protections.noteOfferRefusal(OFFER_TEXTS.noBank);
    expect(protections.activePause()).toBeUndefined();
  });

  it('lift a pause at resume, or when the protection is turned off', async () => {
    protections.noteOfferRefusal(BORROWING);
    protections.noteOfferRefusal(BORROWING);
    expect(protections.resume()?.kind).toBe('account_refusal');
    expect(protections.activePause()).toBeUndefined();
    expect(storedPause(store.state, clock.now())).toBeUndefined();
    expect(protections.resume()).toBeUndefined();

    protections.noteOfferRefusal(BORROWING);
    protections.noteOfferRefusal(BORROWING);
    expect(protections.activePause()).toBeDefined();
    settings = protectionSettingsSchema.parse({ account_refusals: { enabled: false } });
    expect(protections.activePause()).toBeUndefined();
    protections.noteOfferRefusal(BORROWING);
    protections.noteOfferRefusal(BORROWING);
    expect(protections.activePause()).toBeUndefined();
    expect(await events()).toEqual(['protection_paused', 'protection_lifted', 'protection_paused', 'protection_lifted']);
    expect(received.map((body) => body.data.why).filter(Boolean)).toEqual(['resumed by the operator', 'its protection is turned off']);
  });

  it('notify the lift of a pause by lendbot resume, another process, once', async () => {
    protections.noteOfferRefusal(BORROWING);
    protections.noteOfferRefusal(BORROWING);
    // lendbot resume: its own store on the same file, and no notifier.
    const cliStore = openStore(storePath);
    try {
      const cli = new Protections({ store: cliStore, clock, log: captureLog().log, settings: () => settings });
      expect(cli.resume()?.kind).toBe('account_refusal');
    } finally {
      cliStore.close();
    }
    expect(await events()).toEqual(['protection_paused']);

    protections.check();
    expect(protections.activePause()).toBeUndefined();
    protections.check();
    expect(await events()).toEqual(['protection_paused', 'protection_lifted']);
    expect(received[1]?.data).toEqual({
      kind: 'account_refusal',
      reason:
        'account_refusal protection: account refused offers 2 times in 30 min: "Borrower can not offer."; paused until 2026-03-10T18:00:00.000Z or lendbot resume',
      why: 'resumed by the operator',
    });
  });

  it('show a pause in the status report, its text and JSON, and the metric', async () => {
    protections.noteOfferRefusal(BORROWING);
    protections.noteOfferRefusal(BORROWING);
    const report = buildStatusReport({ store, nowMs: clock.now(), limits: DEFAULT_RISK_LIMITS, budgets: [], dryRun: false });
    const reason =
      'account_refusal protection: account refused offers 2 times in 30 min: "Borrower can not offer."; paused until 2026-03-10T18:00:00.000Z or lendbot resume';
    expect(formatStatusText(report)).toContain(`\nprotections      PAUSED: ${reason}\n`);
    expect(statusJson(report).pause).toEqual({
      kind: 'account_refusal',
      reason,
      since: '2026-03-10T12:00:00.000Z',
      until: '2026-03-10T18:00:00.000Z',
    });
    const metrics = createMetrics({ processMetrics: false });
    metrics.observeStatus(report);
    const text = await metrics.registry.metrics();
    expect(text).toContain('lendbot_protection_paused{kind="account_refusal"} 1\n');
    expect(text).toContain('lendbot_protection_paused{kind="drawdown"} 0\n');
    expect(text).toContain('lendbot_webhooks_silent 0\n');
  });
});

describe('book protections', () => {
  it('pause on a default spike among the recent loans, with a minimum sample', async () => {
    settings = protectionSettingsSchema.parse({ drawdown: { enabled: false } });
    for (let id = 1; id <= 3; id++) loan(id, 5, 'default');
    protections.check();
    expect(protections.activePause()).toBeUndefined(); // 3 of 3, but too few to judge

    for (let id = 4; id <= 10; id++) loan(id, 5, 'current');
    loan(11, 90, 'default'); // older than the window: not counted
    protections.check();
    expect(protections.activePause()).toBeUndefined(); // 3 of 10 = 30%, not above 30%

    loan(12, 1, 'collection');
    protections.check();
    expect(protections.activePause()).toMatchObject({
      kind: 'default_spike',
      reason:
        'default_spike protection: 4 of 11 loans of the last 60 days in collection or default (36.4% > 30.0%); paused until 2026-03-11T12:00:00.000Z or lendbot resume',
    });
    expect(await events()).toEqual(['protection_paused']);
  });

  it('do not pause again on the same loans after a resume, but on another loan going bad', () => {
    settings = protectionSettingsSchema.parse({ drawdown: { enabled: false } });
    for (let id = 1; id <= 6; id++) loan(id, 5, 'current');
    for (let id = 7; id <= 10; id++) loan(id, 5, 'default');
    loan(11, 90, 'default'); // outside the window
    protections.check();
    expect(protections.activePause()?.reason).toMatch(/^default_spike protection: 4 of 10 loans /);
    expect(store.state.get('protection_paused_loans')).toBe('[7,8,9,10]');

    protections.resume();
    clock.advance(MINUTE);
    protections.check();
    expect(protections.activePause()).toBeUndefined();

    loan(1, 5, 'collection');
    protections.check();
    expect(protections.activePause()?.reason).toMatch(/^default_spike protection: 5 of 10 loans /);
    expect(store.state.get('protection_paused_loans')).toBe('[7,8,9,10,1]');
  });

  it('pause on a drawdown: what troubled loans still owe, capped at their principal, against the principal lent', () => {
    settings = protectionSettingsSchema.parse({ default_spike: { enabled: false } });
    for (let id = 1; id <= 5; id++) loan(id, 3, 'current', 1000);
    loan(6, 3, 'default', 1000, 600); // 400 repaid or collected
    loan(7, 3, 'collection', 1000, 1150); // owes interest too: counts 1000 at most
    protections.check();
    expect(protections.activePause()?.reason).toBe(
      'drawdown protection: loans in collection or default still owe 1600.00 of 7000.00 lent in the last 60 days (22.9% > 15.0%); paused until 2026-03-11T12:00:00.000Z or lendbot resume',
    );

    protections.resume();
    settings = protectionSettingsSchema.parse({ default_spike: { enabled: false }, drawdown: { max_loss_share: 0.25 } });
    loan(8, 3, 'collection', 500, 100);
    protections.check(); // 1700 of 7500 = 22.7%, not above 25%
    expect(protections.activePause()).toBeUndefined();
  });
});

describe('silent webhooks', () => {
  function polled(ids: number[], atMs: number): void {
    for (const id of ids) store.requests.markSeen(loanRequest({ id }), 'poll', atMs);
  }

  it('raise one alert when polls keep finding requests and no webhook arrives, and clear it when one does', async () => {
    polled([1, 2, 3, 4, 5], clock.now() - 5 * HOUR);
    store.inbox.insert({
      webhookUuid: '0b6f4c2e-3d5a-4e8b-9a71-2f0c6d8e1a00',
      topic: 'new_loan_request_created',
      data: { loan_request_id: 1 },
      receivedAtMs: clock.now() - 7 * HOUR,
    });
    protections.check();
    expect(protections.webhookSilence()).toEqual({ sinceMs: clock.now(), polledRequests: 5 });
    protections.check();
    expect(await events()).toEqual(['webhooks_silent']);
    expect(received[0]?.data).toEqual({
      polled_requests: 5,
      window_hours: 6,
      message:
        'no webhook in 6 h while polls found 5 new requests: the subscription may be deactivated; ask the marketplace to reactivate it',
    });
    const report = buildStatusReport({ store, nowMs: clock.now(), limits: DEFAULT_RISK_LIMITS, budgets: [], dryRun: false });
    expect(formatStatusText(report)).toContain(
      '\nwebhooks         SILENT since 2026-03-10T12:00:00.000Z: polls found 5 new requests, no webhook came (ask to reactivate the subscription)\n',
    );
    const metrics = createMetrics({ processMetrics: false });
    metrics.observeStatus(report);
    expect(await metrics.registry.metrics()).toContain('lendbot_webhooks_silent 1\n');

    // A quiet market does not end it: only a webhook does.
    clock.advance(12 * HOUR);
    protections.check();
    expect(protections.webhookSilence()).toBeDefined();
    store.inbox.insert({
      webhookUuid: '0b6f4c2e-3d5a-4e8b-9a71-2f0c6d8e1a01',
      topic: 'new_loan_request_created',
      data: { loan_request_id: 9 },
      receivedAtMs: clock.now(),
    });
    protections.check();
    expect(protections.webhookSilence()).toBeUndefined();
    expect(await events()).toEqual(['webhooks_silent']);
  });

  it('claim no silence before the daemon has listened for a whole window (a fast simulated clock made hours of its start-up)', () => {
    // Polls found requests hours ago and no webhook came: silent, had the daemon been listening.
    polled([1, 2, 3, 4, 5], clock.now() - 5 * HOUR);
    protections.listeningSince(clock.now() - 2 * HOUR);
    protections.check();
    expect(protections.webhookSilence()).toBeUndefined();
    // A whole window (6 h) listened and still no webhook: now it is.
    clock.advance(4 * HOUR);
    polled([6, 7, 8, 9, 10], clock.now() - 2 * HOUR);
    protections.check();
    expect(protections.webhookSilence()).toEqual({ sinceMs: clock.now(), polledRequests: 5 });
  });

  it('stay quiet just after a start, while the service may still retry what it missed, and while webhooks arrive', () => {
    polled([1, 2, 3, 4, 5, 6, 7, 8], clock.now() - 30 * MINUTE); // the first poll after a start
    protections.check();
    expect(protections.webhookSilence()).toBeUndefined();

    store.inbox.insert({
      webhookUuid: '0b6f4c2e-3d5a-4e8b-9a71-2f0c6d8e1a02',
      topic: 'new_loan_request_created',
      data: { loan_request_id: 9 },
      receivedAtMs: clock.now() - 3 * HOUR,
    });
    clock.advance(2 * HOUR);
    protections.check();
    expect(protections.webhookSilence()).toBeUndefined();

    settings = protectionSettingsSchema.parse({ webhook_silence: { enabled: false } });
    clock.advance(4 * HOUR);
    polled([10, 11, 12, 13, 14], clock.now() - 2 * HOUR);
    protections.check();
    expect(protections.webhookSilence()).toBeUndefined();
    expect(store.state.get(PAUSE_KEY)).toBeUndefined();
  });
});
