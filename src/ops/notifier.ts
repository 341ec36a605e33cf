/**
 * Outbound notifications: one JSON POST per event, with retries, in the format the receiver
 * reads (notification-formats/): the generic JSON document (the default) for a script or an
 * automation service, or a Slack, Discord or Telegram message in plain words. Each event can be
 * turned off. Sending never throws: a notification that cannot be delivered is logged, with the
 * service's own explanation and never the URL (it holds a token), and dropped; it never stops
 * the daemon.
 */
import got, { HTTPError, RequestError } from 'got';
import { z } from 'zod';
import type { Clock } from '../clock/clock.js';
import type { Logger } from '../log/logger.js';
import { jsonFormat } from './notification-formats/json.js';
import { NOTIFICATION_FORMATS, type NotificationFormat } from './notification-formats/notification-format.js';
import { describeNotification } from './notification-formats/notification-message.js';
import { notificationTarget } from './notification-formats/notification-target.js';
import { DEFAULT_TELEGRAM_API_URL } from './notification-formats/telegram.js';
import { DIGEST_PERIODS } from './digest/digest-sender.js';
import { telegramCommandsSchema } from './telegram-commands/telegram-commands-config.js';

export const NOTIFICATION_EVENTS = [
  'offer_placed',
  'offer_proposed',
  'offer_funded',
  'loan_late',
  'loan_defaulted',
  'payment_late',
  'payment_missed',
  'daily_summary',
  'digest',
  'daemon_error',
  'budget_nearly_spent',
  'service_degraded',
  'protection_paused',
  'protection_lifted',
  'calibration_drift',
  'webhooks_silent',
  'webhooks_refused',
  'idle_cash',
] as const;
export type NotificationEvent = (typeof NOTIFICATION_EVENTS)[number];

/** The `notifications:` config section (every event on unless set to false). */
export const notificationsSchema = z.strictObject({
  format: z
    .enum(NOTIFICATION_FORMATS)
    .default('json')
    .describe(
      'json: the generic document; slack, discord: that webhook (LENDBOT_NOTIFY_URL); telegram: LENDBOT_TELEGRAM_BOT_TOKEN and LENDBOT_TELEGRAM_CHAT_ID',
    ),
  url: z.url().optional().describe('where to POST; LENDBOT_NOTIFY_URL overrides (it may hold a token)'),
  telegram_api_url: z
    .url()
    .default(DEFAULT_TELEGRAM_API_URL)
    .describe("the Telegram Bot API's address (a Local Bot API Server, or a test's)"),
  events: z.partialRecord(z.enum(NOTIFICATION_EVENTS), z.boolean()).default({}).describe('false turns an event off'),
  retries: z.number().int().min(0).max(10).default(3),
  timeout_ms: z.number().int().positive().default(5000),
  budget_warning_share: z.number().min(0).max(1).default(0.8).describe('share of a data budget that triggers budget_nearly_spent'),
  digest: z
    .enum(DIGEST_PERIODS)
    .default('off')
    .describe(
      "day or week: a digest of the last complete period of the run's clock (net earned, interest, losses, idle cash, next month's inflow, offers made and won)",
    ),
  telegram_commands: telegramCommandsSchema
    .optional()
    .describe('answer /status, /profit, /pause, /resume, /approve and /reject from allowed Telegram chats (format: telegram)'),
});
export type NotificationsConfig = z.infer<typeof notificationsSchema>;

export type SendResult = 'sent' | 'disabled' | 'failed';

export interface NotifierOptions {
  /** Where to POST; it may hold a token, so it is never logged. */
  url: string;
  /** The body and the reading of answers (default: the generic JSON document). */
  format?: NotificationFormat;
  events?: Partial<Record<NotificationEvent, boolean>>;
  retries?: number;
  timeoutMs?: number;
  /** First retry delay; doubles each time (default 1000 ms). */
  retryDelayMs?: number;
  clock: Clock;
  log: Logger;
}

/** Sends events to a webhook in one format. */
export class WebhookNotifier {
  constructor(private readonly options: NotifierOptions) {}

  enabled(event: NotificationEvent): boolean {
    return this.options.events?.[event] ?? true;
  }

  async notify(event: NotificationEvent, data: Record<string, unknown>): Promise<SendResult> {
    if (!this.enabled(event)) return 'disabled';
    const { clock, log } = this.options;
    const format = this.options.format ?? jsonFormat;
    const baseDelay = this.options.retryDelayMs ?? 1000;
    try {
      const at = new Date(clock.now()).toISOString();
      const body = format.body({ event, at, data, message: describeNotification(event, data, at) });
      const response = await got.post(this.options.url, {
        json: body,
        timeout: { request: this.options.timeoutMs ?? 5000 },
        retry: {
          limit: this.options.retries ?? 3,
          methods: ['POST'],
          statusCodes: [408, 425, 429, 500, 502, 503, 504],
          calculateDelay: ({ attemptCount, computedValue }) => (computedValue === 0 ? 0 : baseDelay * 2 ** (attemptCount - 1)),
        },
        headers: { 'user-agent': 'lendbot-notifier' },
      });
      const rejection = format.rejection?.(response.body);
      if (rejection !== undefined) {
        log.warn({ event, format: format.name, status: response.statusCode, detail: rejection }, 'notification not delivered');
        return 'failed';
      }
      log.debug({ event, format: format.name }, 'notification sent');
      return 'sent';
    } catch (error) {
      log.warn({ event, format: format.name, ...this.failure(error, format) }, 'notification not delivered');
      return 'failed';
    }
  }

  /** What went wrong, for the log: the status and the service's words, never the URL or the body sent. */
  private failure(error: unknown, format: NotificationFormat): Record<string, unknown> {
    if (error instanceof HTTPError) {
      const detail = format.refusal(String(error.response.body ?? ''));
      return { status: error.response.statusCode, ...(detail === undefined ? {} : { detail: this.scrub(detail) }) };
    }
    if (error instanceof RequestError) return { code: error.code, detail: this.scrub(error.message) };
    // Not an HTTP failure: a bug in a format, say. Logged, never thrown: notifications never stop the daemon.
    return { detail: this.scrub(error instanceof Error ? error.message : String(error)) };
  }

  private scrub(text: string): string {
    return text.split(this.options.url).join('[notification url]');
  }
}

/**
 * A notifier from the config section and the environment; undefined when notifications are off
 * (json without a URL). Throws a ConfigurationError naming what a chosen format lacks.
 */
export function notifierFromConfig(
  config: NotificationsConfig | undefined,
  env: Record<string, string | undefined>,
  deps: { clock: Clock; log: Logger },
): WebhookNotifier | undefined {
  const section = config ?? notificationsSchema.parse({});
  const target = notificationTarget(section, env);
  if (target === undefined) return undefined;
  return new WebhookNotifier({
    url: target.url,
    format: target.format,
    events: section.events,
    retries: section.retries,
    timeoutMs: section.timeout_ms,
    ...deps,
  });
}
