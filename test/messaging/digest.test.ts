/**
 * The digest notification on a real store and a manual clock, sent by the real notifier to
 * fixture servers that check each chat service's payload: a baseline at the first check, one
 * digest when a day (or a week) of the run's clock ends, none repeated after a restart, and the
 * figures from the store (offers made and won in the period, free cash, next month's default-adjusted
 * inflow and idle cash as lendbot status shows them) in every format.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/clock.js';
import { DEFAULT_RISK_LIMITS } from '../../src/risk/index.js';
import { loanPaymentSchema } from '../../src/domain/index.js';
import { storeDigestFigures, type EarningsSeries } from '../../src/messaging/digest/digest-figures.js';
import { DigestSender, NOTIFY_DIGEST_KEY, periodHolding } from '../../src/messaging/digest/digest-sender.js';
import { notifierFromConfig } from '../../src/messaging/notifier.js';
import { notificationsSchema } from '../../src/messaging/notifications-config.js';
import { percent } from '../../src/log/plain-figures.js';
import { buildStatusReport } from '../../src/ops/status-report.js';
import { databaseOf, type Store } from '../../src/store/index.js';
import { captureLog } from '../log/log-capture.js';
import { tempStore } from '../store/fixtures.js';
import { startNotificationReceiver } from './notification-receiver.js';
import {
  DISCORD_PATH,
  SLACK_PATH,
  TELEGRAM_CHAT_ID,
  TELEGRAM_TOKEN,
  startDiscord,
  startSlack,
  startTelegram,
  type FixtureService,
} from './notification-formats-services.js';

const DAY = 86_400_000;
// A Tuesday.
const T0 = Date.parse('2026-03-10T12:00:00.000Z');

/** Cumulative interest and losses as the dashboard's returns series has them. */
const EARNINGS: EarningsSeries = {
  interest: [
    { at: '2026-03-01T00:00:00.000Z', cents: 1_000 },
    { at: '2026-03-10T00:00:00.000Z', cents: 1_500 },
    { at: '2026-03-11T00:00:00.000Z', cents: 2_250 },
  ],
  losses: [
    { at: '2026-03-05T00:00:00.000Z', cents: 300 },
    { at: '2026-03-10T00:00:00.000Z', cents: 700 },
  ],
};

let h: ReturnType<typeof tempStore>;
let store: Store;
let services: FixtureService[] = [];
beforeEach(() => {
  h = tempStore();
  store = h.store;
  seed(store);
});
afterEach(async () => {
  await Promise.all(services.map((service) => service.close()));
  services = [];
  h.cleanup();
});

/** Two offers decided and one won on 2026-03-10, one decided the day before; a loan with payments due in April; $500 deposited. */
function seed(target: Store): void {
  const db = databaseOf(target);
  const decision = db.prepare(
    `INSERT INTO decisions (loan_request_id, strategy, action, reasons_json, dry_run, decided_at, rate) VALUES (?, 's', ?, '[]', 0, ?, 0.2)`,
  );
  decision.run(1, 'offer', '2026-03-09T23:00:00.000Z');
  decision.run(2, 'offer', '2026-03-10T01:00:00.000Z');
  decision.run(3, 'offer', '2026-03-10T02:00:00.000Z');
  decision.run(4, 'skip', '2026-03-10T03:00:00.000Z');
  const offer = db.prepare(
    `INSERT INTO offers (loan_request_id, rate, automate_fund, total_amount_cents, risk_level, borrower_id, state, created_at, updated_at, dry_run) VALUES (?, 0.2, 1, 10000, 1, ?, ?, ?, ?, 0)`,
  );
  offer.run(2, 502, 'funded', '2026-03-10T01:00:00.000Z', '2026-03-10T05:00:00.000Z');
  offer.run(3, 503, 'expired', '2026-03-10T02:00:00.000Z', '2026-03-10T06:00:00.000Z');
  db.prepare(
    `INSERT INTO loans (id, loan_request_id, list_status, status, risk_level, loan_amount_cents, remaining_cents, interest_rate, paid_off, raw_json, synced_at) VALUES (?, 2, ?, 'Current', 1, 10000, 10000, 0.2, 0, '{}', ?)`,
  ).run(7, 'current', '2026-03-10T06:00:00.000Z');
  const payment = (id: number, due: string, status: string) =>
    loanPaymentSchema.parse({ id, loan: 7, payment_amount: '45.50', payment_due_date: due, payment_status: status });
  target.payments.upsert(
    [
      payment(1, '2026-04-02', 'pending'),
      payment(2, '2026-04-20', 'pending'),
      payment(3, '2026-05-02', 'pending'),
      payment(4, '2026-03-02', 'paid'),
    ],
    T0,
  );
  target.account.replaceTransfers(
    [{ date: '2026-03-01', transactions: [{ transfer_status: 'processed', transfer_type: 'Deposit', transfer_amount: '500.00' }] }],
    T0,
  );
}

async function started(service: Promise<FixtureService>): Promise<FixtureService> {
  const running = await service;
  services.push(running);
  return running;
}

/** Idle cash and next month's inflow as lendbot status shows them: the digest must say the same. */
function statusCashFlow(nowMs: number) {
  return buildStatusReport({ store, nowMs, limits: { ...DEFAULT_RISK_LIMITS, minCashReserveCents: 0 }, budgets: [], dryRun: false })
    .cashFlow;
}

function digestFor(
  clock: ManualClock,
  config: Record<string, unknown>,
  env: Record<string, string>,
  every: 'day' | 'week' = 'day',
): DigestSender {
  const notifier = notifierFromConfig(notificationsSchema.parse({ retries: 0, ...config }), env, { clock, log: captureLog('debug').log });
  if (notifier === undefined) throw new Error('expected a notifier');
  const limits = { ...DEFAULT_RISK_LIMITS, minCashReserveCents: 0 };
  const figures = storeDigestFigures({
    store,
    status: (nowMs) => buildStatusReport({ store, nowMs, limits, budgets: [], dryRun: false }),
    earnings: () => EARNINGS,
  });
  return new DigestSender({ every, state: store.state, clock, figures, notify: (event, data) => notifier.notify(event, data) });
}

describe('the digest period', () => {
  it('is the UTC day, or the week from Monday', () => {
    expect(periodHolding('day', T0)).toEqual({ fromMs: Date.parse('2026-03-10T00:00:00Z'), toMs: Date.parse('2026-03-11T00:00:00Z') });
    expect(periodHolding('week', T0)).toEqual({ fromMs: Date.parse('2026-03-09T00:00:00Z'), toMs: Date.parse('2026-03-16T00:00:00Z') });
    expect(periodHolding('week', Date.parse('2026-03-15T23:59:59Z')).fromMs).toBe(Date.parse('2026-03-09T00:00:00Z'));
  });
});

describe('the digest notification', () => {
  it('takes a baseline, then sends one digest of the day just ended, with the store’s figures, as JSON', async () => {
    const receiver = await startNotificationReceiver();
    try {
      const clock = new ManualClock(T0);
      const digest = digestFor(clock, {}, { LENDBOT_NOTIFY_URL: receiver.url });
      expect(await digest.check()).toBe(false);
      clock.advance(DAY / 4);
      expect(await digest.check()).toBe(false);
      clock.advance(DAY);
      expect(await digest.check()).toBe(true);
      expect(await digest.check()).toBe(false);
      const cash = statusCashFlow(clock.now());
      // The forecast weighs April's two scheduled payments (2 x 45.50) by the chance the loan survives.
      expect(cash.nextMonth.expectedCents).toBeGreaterThan(0);
      expect(cash.nextMonth.expectedCents).toBeLessThan(9_100);
      expect(receiver.received).toEqual([
        {
          event: 'digest',
          at: '2026-03-11T18:00:00.000Z',
          app: 'lendbot',
          data: {
            period: 'day',
            from: '2026-03-10T00:00:00.000Z',
            until: '2026-03-11T00:00:00.000Z',
            net_earned_cents: 500 - 400,
            interest_cents: 500,
            losses_cents: 400,
            idle_cash_cents: 50_000,
            idle_share: cash.idle.share,
            next_month_inflow_cents: cash.nextMonth.expectedCents,
            offers_made: 2,
            offers_won: 1,
          },
        },
      ]);
      // A restart (a new sender on the same database) does not send the same period again.
      expect(await digestFor(clock, {}, { LENDBOT_NOTIFY_URL: receiver.url }).check()).toBe(false);
      expect(store.state.get(NOTIFY_DIGEST_KEY)).toBe('2026-03-11T00:00:00.000Z');
    } finally {
      await receiver.close();
    }
  });

  it('sends each day exactly once, in order, across failed deliveries and restarts, at most 7 after a long downtime', async () => {
    const receiver = await startNotificationReceiver();
    const sent = () => receiver.received.map((body) => String(body.data.from).slice(0, 10));
    try {
      const clock = new ManualClock(T0);
      const env = { LENDBOT_NOTIFY_URL: receiver.url };
      expect(await digestFor(clock, {}, env).check()).toBe(false);
      // The receiver is down for the next two deliveries, across two day boundaries.
      receiver.failNext(2);
      clock.advance(DAY);
      expect(await digestFor(clock, {}, env).check()).toBe(false);
      clock.advance(DAY);
      expect(await digestFor(clock, {}, env).check()).toBe(false);
      expect(sent()).toEqual([]);
      // Restarted three days later (a new sender on the same file): every day since, oldest first.
      clock.advance(3 * DAY);
      const restarted = digestFor(clock, {}, env);
      expect(await restarted.check()).toBe(true);
      expect(await restarted.check()).toBe(false);
      expect(sent()).toEqual(['2026-03-10', '2026-03-11', '2026-03-12', '2026-03-13', '2026-03-14']);
      // Ten days down: the last 7 are sent, the first of them saying how many were not.
      clock.advance(10 * DAY);
      expect(await digestFor(clock, {}, env).check()).toBe(true);
      expect(sent().slice(5)).toEqual(['2026-03-18', '2026-03-19', '2026-03-20', '2026-03-21', '2026-03-22', '2026-03-23', '2026-03-24']);
      expect(receiver.received[5]?.data.earlier_periods_not_sent).toBe(3);
      expect(receiver.received[6]?.data).not.toHaveProperty('earlier_periods_not_sent');
      clock.advance(DAY);
      expect(await digestFor(clock, {}, env).check()).toBe(true);
      expect(sent()).toHaveLength(13);
      expect(new Set(sent()).size).toBe(13);
      expect(store.state.get(NOTIFY_DIGEST_KEY)).toBe('2026-03-26T00:00:00.000Z');
    } finally {
      await receiver.close();
    }
  });

  it('says the week in plain words in Slack, Discord and Telegram, which each service accepts', async () => {
    const slack = await started(startSlack());
    const discord = await started(startDiscord());
    const telegram = await started(startTelegram());
    const telegramEnv = { LENDBOT_TELEGRAM_BOT_TOKEN: TELEGRAM_TOKEN, LENDBOT_TELEGRAM_CHAT_ID: TELEGRAM_CHAT_ID };
    const targets: Array<[Record<string, unknown>, Record<string, string>]> = [
      [{ format: 'slack' }, { LENDBOT_NOTIFY_URL: `${slack.origin}${SLACK_PATH}` }],
      [{ format: 'discord' }, { LENDBOT_NOTIFY_URL: `${discord.origin}${DISCORD_PATH}` }],
      [{ format: 'telegram', telegram_api_url: telegram.origin }, telegramEnv],
    ];
    for (const [config, env] of targets) {
      // The week of 9 March was the last told; on the next Monday it has ended.
      store.state.set(NOTIFY_DIGEST_KEY, '2026-03-09T00:00:00.000Z', T0);
      expect(await digestFor(new ManualClock(T0 + 6 * DAY), config, env, 'week').check()).toBe(true);
    }
    for (const service of [slack, discord, telegram]) expect(service.refusals).toEqual([]);

    const inflow = `$${(statusCashFlow(T0 + 6 * DAY).nextMonth.expectedCents / 100).toFixed(2)}`;
    const slackText = JSON.stringify(slack.requests[0]?.body);
    expect(slackText).toContain('Weekly digest: $8.50 net earned');
    expect(slackText).toContain('*Interest*\\n$12.50');
    expect(slackText).toContain('*Losses*\\n$4.00');
    expect(slackText).toContain('*Idle cash now*\\n$500.00');
    expect(slackText).toContain(`*Expected back next month*\\n${inflow}`);
    expect(slackText).toContain('*Offers made*\\n3');
    expect(slackText).toContain('*Offers won*\\n1');

    const embed = (
      discord.requests[0]?.body as { embeds: Array<{ title: string; description: string; fields: Array<{ name: string; value: string }> }> }
    ).embeds[0];
    expect(embed?.title).toBe('Weekly digest: $8.50 net earned');
    expect(embed?.description).toBe(
      "The week from 2026-03-09 00:00 UTC to 2026-03-16 00:00 UTC by the run's clock; idle cash and next month's inflow as of now.",
    );
    expect(embed?.fields).toContainEqual({
      name: 'Idle share of the money',
      value: percent(statusCashFlow(T0 + 6 * DAY).idle.share),
      inline: true,
    });

    const text = (telegram.requests[0]?.body as { text: string }).text;
    expect(text).toContain('<b>Weekly digest: $8.50 net earned</b>');
    expect(text).toContain('Net earned (interest less losses): <b>$8.50</b>');
    expect(text).toContain(`Expected back next month: <b>${inflow}</b>`);
  });
});
