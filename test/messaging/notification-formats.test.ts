/**
 * Each notification format against a real HTTP server checking the payload the way that service
 * does (notification-formats-services.ts): every event lendbot sends is accepted, the wording is
 * plain (dollars, percent, the event named for people), the limits hold for oversized data, and a
 * refusal is logged with the service's words, never with the URL or token, and never throws.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/clock.js';
import { notifierFromConfig } from '../../src/messaging/notifier.js';
import { NOTIFICATION_EVENTS, type NotificationEvent } from '../../src/domain/index.js';
import { notificationsSchema } from '../../src/messaging/notifications-config.js';
import { captureLog } from '../log/log-capture.js';
import { startNotificationReceiver } from './notification-receiver.js';
import {
  DISCORD_PATH,
  SLACK_PATH,
  TELEGRAM_CHAT_ID,
  TELEGRAM_TOKEN,
  parseTelegramHtml,
  startDiscord,
  startSlack,
  startTelegram,
  type FixtureService,
} from './notification-formats-services.js';

/** One example of every event, with the data the daemon sends (see src/messaging/notification-watcher.ts and its callers). */
const SAMPLES: Record<NotificationEvent, Record<string, unknown>> = {
  offer_placed: { loan_request_id: 1001, rate: 0.228, total_amount_cents: 52000, risk_level: 1 },
  offer_proposed: {
    agent: 'agent:claude',
    loan_request_id: 1002,
    proposal_id: 12,
    rate: 0.25,
    amount_cents: 520000,
    risk_level: 1,
    automate_fund: true,
    expires_at: '2026-03-10T12:30:00.000Z',
    why_approval: 'token "claude" has no allowance, so every offer it asks for waits for a person',
    review_url: 'http://127.0.0.1:8081/#proposal-12',
    approve_command: 'lendbot approve 12',
  },
  offer_funded: { loan_request_id: 1001, rate: 0.2125, total_amount_cents: 123456, risk_level: 2 },
  loan_late: { loan_id: 77 },
  loan_defaulted: { loan_id: 78 },
  payment_late: { loan_id: 123, payment_id: 9, due_date: '2026-03-01', status: 'late', amount_cents: 1234, delayed_days: 3, fees_cents: 0 },
  payment_missed: {
    loan_id: 123,
    payment_id: 10,
    due_date: '2026-02-01',
    status: 'missed',
    amount_cents: 1234,
    delayed_days: 40,
    fees_cents: 250,
  },
  daily_summary: {
    balance_cents: 119800,
    reserved_cents: 89850,
    free_cents: 29950,
    exposure_cents: 500000,
    loans_by_status: { current: 12, late: 1 },
    data_spend_cents: 360,
  },
  daemon_error: { message: 'SQLITE_BUSY: database is locked' },
  budget_nearly_spent: { strategy: 'balanced', spent_cents: 360, monthly_budget_cents: 450 },
  service_degraded: { code: 'AUTH_INVALID_HMAC', reason: 'Invalid HMAC: check LENDBOT_SECRET_KEY and LENDBOT_SIGNATURE_MODE' },
  protection_paused: {
    kind: 'drawdown',
    reason: 'drawdown protection: 12 % below the peak; paused until 2026-03-11T12:00:00.000Z or lendbot resume',
    since: '2026-03-10T12:00:00.000Z',
    until: '2026-03-11T12:00:00.000Z',
  },
  protection_lifted: { kind: 'operator', reason: 'paused by the operator', why: 'resumed by the operator' },
  webhooks_silent: {
    polled_requests: 7,
    window_hours: 6,
    message: 'polls found 7 new requests in 6 h and no webhook arrived: is the subscription active?',
  },
  digest: {
    period: 'week',
    from: '2026-03-02T00:00:00.000Z',
    until: '2026-03-09T00:00:00.000Z',
    net_earned_cents: 4321,
    interest_cents: 5321,
    losses_cents: 1000,
    idle_cash_cents: 120000,
    idle_share: 0.24,
    next_month_inflow_cents: 98765,
    offers_made: 14,
    offers_won: 3,
  },
  webhooks_refused: {
    refused: 3,
    since: '2026-03-10T11:50:00.000Z',
    last_code: 'MALFORMED',
    last_message: 'no loan_request id',
    token_layout: 'nested',
    message: 'validly signed webhooks were refused 3 times: <check the token layout> & docs',
  },
  calibration_drift: {
    message:
      'realised default runs above the predicted beyond noise: loans since 2025-04: predicted 8.0%, realised so far 21.0% [15.2% to 28.1%] of 120 loans',
  },
  idle_cash: {
    message: '62% of your money has been idle for more than 72 h (the alert is set at 50%). No loan requests arrived in the last 72 h.',
    idle_cents: 620000,
    since: '2026-03-07T12:00:00.000Z',
  },
};

const clock = new ManualClock('2026-03-10T12:00:00.000Z');
let services: FixtureService[] = [];
afterEach(async () => {
  await Promise.all(services.map((service) => service.close()));
  services = [];
});

async function started(service: Promise<FixtureService>): Promise<FixtureService> {
  const running = await service;
  services.push(running);
  return running;
}

function notifierFor(config: Record<string, unknown>, env: Record<string, string>, log = captureLog('debug').log) {
  const notifier = notifierFromConfig(notificationsSchema.parse({ retries: 0, ...config }), env, { clock, log });
  if (notifier === undefined) throw new Error('expected a notifier');
  return notifier;
}

async function sendEverySample(notifier: ReturnType<typeof notifierFor>): Promise<string[]> {
  const results: string[] = [];
  for (const event of NOTIFICATION_EVENTS) results.push(await notifier.notify(event, SAMPLES[event]));
  return results;
}

describe('slack', () => {
  it('sends every event as text plus a mrkdwn section with the figures as fields, which Slack accepts', async () => {
    const slack = await started(startSlack());
    const notifier = notifierFor({ format: 'slack' }, { LENDBOT_NOTIFY_URL: `${slack.origin}${SLACK_PATH}` });
    expect(await sendEverySample(notifier)).toEqual(NOTIFICATION_EVENTS.map(() => 'sent'));
    expect(slack.refusals).toEqual([]);
    expect(slack.requests.every((request) => request.contentType === 'application/json')).toBe(true);

    const missed = slack.requests[NOTIFICATION_EVENTS.indexOf('payment_missed')]?.body;
    expect(missed).toEqual({
      text: 'Payment missed on loan 123',
      blocks: [
        {
          type: 'section',
          text: { type: 'mrkdwn', text: ':rotating_light: *Payment missed on loan 123*' },
          fields: [
            { type: 'mrkdwn', text: '*Payment*\n10' },
            { type: 'mrkdwn', text: '*Due*\n2026-02-01' },
            { type: 'mrkdwn', text: '*Status*\nmissed' },
            { type: 'mrkdwn', text: '*Amount*\n$12.34' },
            { type: 'mrkdwn', text: '*Days late*\n40' },
            { type: 'mrkdwn', text: '*Fees*\n$2.50' },
          ],
        },
        { type: 'context', elements: [{ type: 'mrkdwn', text: 'lendbot · 2026-03-10 12:00 UTC' }] },
      ],
    });
    const offer = JSON.stringify(slack.requests[0]?.body);
    expect(offer).toContain('Offer placed on loan request 1001');
    expect(offer).toContain('*Rate*\\n22.8 %');
    expect(offer).toContain('*Amount*\\n$520.00');
    expect(offer).toContain('*Risk level*\\n1 (medium)');
    // Slack's control characters are escaped, so text never turns into a link or a mention.
    expect(JSON.stringify(slack.requests[NOTIFICATION_EVENTS.indexOf('webhooks_refused')]?.body)).toContain(
      '&lt;check the token layout&gt; &amp; docs',
    );
  });

  it('splits more than ten fields into further sections', async () => {
    const slack = await started(startSlack());
    const notifier = notifierFor({ format: 'slack' }, { LENDBOT_NOTIFY_URL: `${slack.origin}${SLACK_PATH}` });
    const wide = Object.fromEntries(Array.from({ length: 23 }, (_, index) => [`figure_${index}_cents`, index * 100]));
    expect(await notifier.notify('daily_summary', wide)).toBe('sent');
    const blocks = (slack.requests[0]?.body as { blocks: Array<{ fields?: unknown[] }> }).blocks;
    expect(blocks.map((block) => block.fields?.length)).toEqual([10, 10, 3, undefined]);
  });

  it("logs Slack's refusal in its own words and does not throw", async () => {
    const slack = await started(startSlack());
    const captured = captureLog('debug');
    const notifier = notifierFor({ format: 'slack' }, { LENDBOT_NOTIFY_URL: `${slack.origin}/services/T0/B0/revoked` }, captured.log);
    expect(await notifier.notify('loan_defaulted', SAMPLES.loan_defaulted)).toBe('failed');
    expect(slack.refusals).toEqual(['no_service']);
    expect(captured.lines.at(-1)).toMatchObject({
      level: 40,
      msg: 'notification not delivered',
      event: 'loan_defaulted',
      format: 'slack',
      status: 404,
      detail: 'no_service',
    });
    expect(JSON.stringify(captured.lines)).not.toContain('revoked');
  });
});

describe('discord', () => {
  it('sends every event as one embed within Discord’s limits, which Discord accepts with 204', async () => {
    const discord = await started(startDiscord());
    const notifier = notifierFor({ format: 'discord' }, { LENDBOT_NOTIFY_URL: `${discord.origin}${DISCORD_PATH}` });
    expect(await sendEverySample(notifier)).toEqual(NOTIFICATION_EVENTS.map(() => 'sent'));
    expect(discord.refusals).toEqual([]);

    const summary = discord.requests[NOTIFICATION_EVENTS.indexOf('daily_summary')]?.body;
    expect(summary).toEqual({
      embeds: [
        {
          title: 'Daily summary',
          color: 0x3b82f6,
          fields: [
            { name: 'Balance', value: '$1,198.00', inline: true },
            { name: 'Reserved', value: '$898.50', inline: true },
            { name: 'Free cash', value: '$299.50', inline: true },
            { name: 'Exposure', value: '$5,000.00', inline: true },
            { name: 'Loans', value: 'current 12, late 1', inline: true },
            { name: 'Data spend this month', value: '$3.60', inline: true },
          ],
          footer: { text: 'lendbot' },
          timestamp: '2026-03-10T12:00:00.000Z',
        },
      ],
    });
    const budget = JSON.stringify(discord.requests[NOTIFICATION_EVENTS.indexOf('budget_nearly_spent')]?.body);
    expect(budget).toContain('"title":"Data budget nearly spent by strategy balanced"');
    expect(budget).toContain('"description":"$3.60 of $4.50 spent this month (80 %)."');
  });

  it('cuts oversized data to the limits instead of being refused', async () => {
    const discord = await started(startDiscord());
    const notifier = notifierFor({ format: 'discord' }, { LENDBOT_NOTIFY_URL: `${discord.origin}${DISCORD_PATH}` });
    const huge = {
      message: 'x'.repeat(10_000),
      ...Object.fromEntries(Array.from({ length: 40 }, (_, index) => [`detail_${index}`, 'y'.repeat(2000)])),
    };
    expect(await notifier.notify('daemon_error', huge)).toBe('sent');
    expect(discord.refusals).toEqual([]);
    const embed = (discord.requests[0]?.body as { embeds: Array<{ description: string; fields: Array<{ value: string }> }> }).embeds[0];
    expect(embed?.description.endsWith('…')).toBe(true);
    expect(embed?.fields.length).toBeLessThanOrEqual(25);
    expect(embed?.fields.every((field) => field.value.length <= 1024)).toBe(true);
  });

  it("logs Discord's error message and does not throw", async () => {
    const discord = await started(startDiscord());
    const captured = captureLog('debug');
    const notifier = notifierFor(
      { format: 'discord' },
      { LENDBOT_NOTIFY_URL: `${discord.origin}/api/webhooks/1/deleted-token` },
      captured.log,
    );
    expect(await notifier.notify('offer_funded', SAMPLES.offer_funded)).toBe('failed');
    expect(captured.lines.at(-1)).toMatchObject({
      level: 40,
      msg: 'notification not delivered',
      format: 'discord',
      status: 404,
      detail: 'Unknown Webhook',
    });
    expect(JSON.stringify(captured.lines)).not.toContain('deleted-token');
  });
});

describe('telegram', () => {
  const env = { LENDBOT_TELEGRAM_BOT_TOKEN: TELEGRAM_TOKEN, LENDBOT_TELEGRAM_CHAT_ID: TELEGRAM_CHAT_ID };

  it('sends every event with sendMessage as escaped HTML, which the Bot API accepts', async () => {
    const telegram = await started(startTelegram());
    const notifier = notifierFor({ format: 'telegram', telegram_api_url: telegram.origin }, env);
    expect(await sendEverySample(notifier)).toEqual(NOTIFICATION_EVENTS.map(() => 'sent'));
    expect(telegram.refusals).toEqual([]);
    expect(
      telegram.requests.every(
        (request) => request.path === `/bot${TELEGRAM_TOKEN}/sendMessage` && request.contentType === 'application/json',
      ),
    ).toBe(true);

    const placed = telegram.requests[0]?.body;
    expect(placed).toEqual({
      chat_id: TELEGRAM_CHAT_ID,
      parse_mode: 'HTML',
      text: [
        'ℹ️ <b>Offer placed on loan request 1001</b>',
        'Rate: <b>22.8 %</b>',
        'Amount: <b>$520.00</b>',
        'Risk level: <b>1 (medium)</b>',
        '<i>lendbot · 2026-03-10 12:00 UTC</i>',
      ].join('\n'),
    });
    const refused = telegram.requests[NOTIFICATION_EVENTS.indexOf('webhooks_refused')]?.body as { text: string };
    expect(refused.text).toContain('validly signed webhooks were refused 3 times: &lt;check the token layout&gt; &amp; docs');
    expect(parseTelegramHtml(refused.text)).toMatchObject({ text: expect.stringContaining('<check the token layout> & docs') });
  });

  it('keeps a long message within 4,096 characters without breaking the HTML', async () => {
    const telegram = await started(startTelegram());
    const notifier = notifierFor({ format: 'telegram', telegram_api_url: telegram.origin }, env);
    expect(await notifier.notify('daemon_error', { message: '<&>'.repeat(3000) })).toBe('sent');
    expect(telegram.refusals).toEqual([]);
  });

  it('logs {ok:false, description} clearly, never the token, and does not throw', async () => {
    const telegram = await started(startTelegram('-100999'));
    const captured = captureLog('debug');
    const notifier = notifierFor({ format: 'telegram', telegram_api_url: telegram.origin }, env, captured.log);
    expect(await notifier.notify('payment_missed', SAMPLES.payment_missed)).toBe('failed');
    expect(telegram.refusals).toEqual(['Bad Request: chat not found']);
    expect(captured.lines.at(-1)).toMatchObject({
      level: 40,
      msg: 'notification not delivered',
      event: 'payment_missed',
      format: 'telegram',
      status: 400,
      detail: 'Bad Request: chat not found',
    });
    expect(JSON.stringify(captured.lines)).not.toContain(TELEGRAM_TOKEN.split(':')[1]);
  });

  it('says Unauthorized for a wrong token', async () => {
    const telegram = await started(startTelegram());
    const captured = captureLog('debug');
    const wrong = { ...env, LENDBOT_TELEGRAM_BOT_TOKEN: '987654321:AAWrongTokenWrongTokenWrongToken_xy' };
    const notifier = notifierFor({ format: 'telegram', telegram_api_url: telegram.origin }, wrong, captured.log);
    expect(await notifier.notify('loan_late', SAMPLES.loan_late)).toBe('failed');
    expect(captured.lines.at(-1)).toMatchObject({ status: 401, detail: 'Unauthorized' });
    expect(JSON.stringify(captured.lines)).not.toContain('AAWrongToken');
  });

  it('logs an unreachable API without the token in the message', async () => {
    const telegram = await started(startTelegram());
    const origin = telegram.origin;
    await telegram.close();
    services = [];
    const captured = captureLog('debug');
    const notifier = notifierFor({ format: 'telegram', telegram_api_url: origin }, env, captured.log);
    expect(await notifier.notify('loan_late', SAMPLES.loan_late)).toBe('failed');
    expect(captured.lines.at(-1)).toMatchObject({ level: 40, msg: 'notification not delivered', code: 'ECONNREFUSED' });
    expect(JSON.stringify(captured.lines)).not.toContain(TELEGRAM_TOKEN.split(':')[1]);
  });
});

describe('json (the default)', () => {
  it('still sends the generic document, unchanged', async () => {
    const receiver = await startNotificationReceiver();
    try {
      const notifier = notifierFor({}, { LENDBOT_NOTIFY_URL: receiver.url });
      expect(await notifier.notify('offer_placed', SAMPLES.offer_placed)).toBe('sent');
      expect(receiver.received).toEqual([
        { event: 'offer_placed', at: '2026-03-10T12:00:00.000Z', app: 'lendbot', data: SAMPLES.offer_placed },
      ]);
    } finally {
      await receiver.close();
    }
  });
});
