/**
 * Outbound notifications: one JSON POST per event, with retries, in the format the receiver
 * reads (notification-formats/): the generic JSON document (the default) for a script or an
 * automation service, or a Slack, Discord or Telegram message in plain words. Each event can be
 * turned off. Sending never throws: a notification that cannot be delivered is logged, with the
 * service's own explanation and never the URL (it holds a token), and dropped; it never stops
 * the daemon.
 */
import got, { HTTPError, RequestError } from 'got';
import type { Clock } from '../clock/clock.js';
import type { Logger } from '../log/logger.js';
import { jsonFormat } from './notification-formats/json.js';
import type { NotificationFormat } from './notification-formats/notification-format.js';
import { describeNotification } from './notification-formats/notification-message.js';
import { notificationTarget } from './notification-formats/notification-target.js';
import { notificationsSchema, type NotificationEvent, type NotificationsConfig } from './notifications-config.js';

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
