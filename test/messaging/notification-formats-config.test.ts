/**
 * The `notifications:` section with a format: validated with zod, each format's requirements
 * checked against the environment at start, every missing variable named (and no secret value
 * repeated); and the plain words the chat formats use.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/clock.js';
import { dollars, percent, utcTime } from '../../src/messaging/notification-formats/plain-words.js';
import { describeNotification } from '../../src/messaging/notification-formats/notification-message.js';
import { notifierFromConfig } from '../../src/messaging/notifier.js';
import { notificationsSchema } from '../../src/messaging/notifications-config.js';
import { ConfigurationError } from '../../src/domain/index.js';
import { silentLogger } from '../../src/log/logger.js';

const deps = { clock: new ManualClock('2026-03-10T12:00:00.000Z'), log: silentLogger };
const build = (section: Record<string, unknown>, env: Record<string, string>) =>
  notifierFromConfig(notificationsSchema.parse(section), env, deps);
const TOKEN = '123456789:AAFixtureTokenFixtureTokenFixture_ab';

function problem(section: Record<string, unknown>, env: Record<string, string>): string {
  try {
    build(section, env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigurationError');
}

describe('notifications.format', () => {
  it('defaults to json, which stays off without a URL, as before', () => {
    expect(notificationsSchema.parse({}).format).toBe('json');
    expect(build({}, {})).toBeUndefined();
    expect(build({ format: 'json' }, { LENDBOT_NOTIFY_URL: 'https://example.com/hook' })).toBeDefined();
  });

  it('accepts only the four formats', () => {
    const result = notificationsSchema.safeParse({ format: 'teams' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['format']);
  });

  it('telegram names every variable it lacks', () => {
    expect(problem({ format: 'telegram' }, {})).toBe(
      'notifications.format is telegram, but LENDBOT_TELEGRAM_BOT_TOKEN is not set; LENDBOT_TELEGRAM_CHAT_ID is not set: see docs/operations.md#notifications',
    );
    expect(problem({ format: 'telegram' }, { LENDBOT_TELEGRAM_BOT_TOKEN: TOKEN, LENDBOT_TELEGRAM_CHAT_ID: '  ' })).toBe(
      'notifications.format is telegram, but LENDBOT_TELEGRAM_CHAT_ID is not set: see docs/operations.md#notifications',
    );
    // A URL for the webhook formats does not stand in for the bot's variables.
    expect(
      problem({ format: 'telegram' }, { LENDBOT_NOTIFY_URL: 'https://example.com/hook', LENDBOT_TELEGRAM_CHAT_ID: '-100123' }),
    ).toContain('LENDBOT_TELEGRAM_BOT_TOKEN is not set');
  });

  it('says a malformed token or chat id is wrong without repeating it', () => {
    const message = problem(
      { format: 'telegram' },
      { LENDBOT_TELEGRAM_BOT_TOKEN: 'not-a-real-token-secret', LENDBOT_TELEGRAM_CHAT_ID: 'my chat' },
    );
    expect(message).toBe(
      'notifications.format is telegram, but LENDBOT_TELEGRAM_BOT_TOKEN is not a bot token (digits, a colon, then letters, as @BotFather gives it); ' +
        'LENDBOT_TELEGRAM_CHAT_ID is not a chat id (a number such as -1001234567890, or @channelname): see docs/operations.md#notifications',
    );
    expect(message).not.toContain('not-a-real-token-secret');
  });

  it('builds a telegram notifier from the environment alone', () => {
    expect(build({ format: 'telegram' }, { LENDBOT_TELEGRAM_BOT_TOKEN: TOKEN, LENDBOT_TELEGRAM_CHAT_ID: '@lendbot_alerts' })).toBeDefined();
  });

  it('slack and discord need a webhook URL, and a URL that is one', () => {
    expect(problem({ format: 'slack' }, {})).toBe(
      "notifications.format is slack, but no webhook URL is set (set LENDBOT_NOTIFY_URL to the Slack incoming webhook's URL): see docs/operations.md#notifications",
    );
    expect(problem({ format: 'discord' }, {})).toContain("set LENDBOT_NOTIFY_URL to the Discord webhook's URL");
    const bad = problem({ format: 'discord' }, { LENDBOT_NOTIFY_URL: 'discord.com/api/webhooks/1/secret-part' });
    expect(bad).toBe(
      'notifications.format is discord, but LENDBOT_NOTIFY_URL is not a URL (e.g. https://hooks.slack.com/services/...): see docs/operations.md#notifications',
    );
    expect(build({ format: 'slack', url: 'https://hooks.slack.com/services/T0/B0/X' }, {})).toBeDefined();
  });

  it('keeps the Telegram API address configurable and checked', () => {
    expect(notificationsSchema.parse({}).telegram_api_url).toBe('https://api.telegram.org');
    expect(notificationsSchema.safeParse({ telegram_api_url: 'not a url' }).success).toBe(false);
  });
});

describe('plain words', () => {
  it('writes money in dollars and rates in percent', () => {
    expect([dollars(0), dollars(5), dollars(123456), dollars(-250), dollars(100_000_000)]).toEqual([
      '$0.00',
      '$0.05',
      '$1,234.56',
      '-$2.50',
      '$1,000,000.00',
    ]);
    expect([percent(0.228), percent(0.2125), percent(0.2), percent(2)]).toEqual(['22.8 %', '21.25 %', '20 %', '200 %']);
    expect(utcTime('2026-03-10T12:00:00.000Z')).toBe('2026-03-10 12:00 UTC');
  });

  it('names the event for people and keeps every other figure as a field', () => {
    const message = describeNotification(
      'payment_missed',
      { loan_id: 123, amount_cents: 1234, delayed_days: 40, fees_cents: null },
      '2026-03-10T12:00:00.000Z',
    );
    expect(message).toEqual({
      event: 'payment_missed',
      at: '2026-03-10T12:00:00.000Z',
      title: 'Payment missed on loan 123',
      fields: [
        { label: 'Amount', value: '$12.34' },
        { label: 'Days late', value: '40' },
      ],
      severity: 'bad',
    });
    expect(
      describeNotification(
        'protection_paused',
        { kind: 'operator', reason: 'paused by the operator', until: null },
        '2026-03-10T12:00:00.000Z',
      ),
    ).toMatchObject({
      title: 'New offers paused (operator)',
      description: 'paused by the operator',
      fields: [{ label: 'Until', value: 'resumed by hand (lendbot resume)' }],
    });
  });
});
