/**
 * Outbound notifications: one JSON POST per event, with retries, in the format the receiver
 * reads (notification-formats/): the generic JSON document (the default) for a script or an
 * automation service, or a Slack, Discord or Telegram message in plain words. Each event can be
 * turned off. Sending never throws: a notification that cannot be delivered is logged, with the
 * service's own explanation and never the URL or a token (secret-text.ts: redacted from every
 * error text, the service's included), and dropped; it never stops the daemon. Answers are read
 * within NOTIFY_ANSWER_LIMIT bytes (postBounded).
 */
import { RequestError } from 'got';
import type { Clock } from '../clock/clock.js';
import { silentLogger, type Logger } from '../log/logger.js';
import { postBounded } from '../service/index.js';
import { jsonFormat } from './notification-formats/json.js';
import type { NotificationFormat } from './notification-formats/notification-format.js';
import { describeNotification } from './notification-formats/notification-message.js';
import { notificationTarget } from './notification-formats/notification-target.js';
import { redactSecrets, urlSecrets } from './notification-formats/secret-text.js';
import { AppError, type NotificationEvent } from '../domain/index.js';
import { notificationsSchema, type NotificationsConfig } from './notifications-config.js';

/** 'queued': handed to a chat's outbox, which sends it in the chat's turn (chat-pace/chat-outbox.ts). */
export type SendResult = 'sent' | 'queued' | 'disabled' | 'failed';

/** Bytes of a receiver's answer read at most: an acknowledgement, or a few lines of explanation. */
export const NOTIFY_ANSWER_LIMIT = 256 * 1024;

export interface NotifierOptions {
  /** Where to POST; it may hold a token, so it is never logged. */
  url: string;
  /** What no log line may show (default: the URL's secret parts, secret-text.ts). */
  secrets?: readonly string[];
  /** The body and the reading of answers (default: the generic JSON document). */
  format?: NotificationFormat;
  events?: Partial<Record<NotificationEvent, boolean>>;
  retries?: number;
  timeoutMs?: number;
  /** First retry delay; doubles each time (default 1000 ms). */
  retryDelayMs?: number;
  /** The chat the messages land in (notification-target.ts), for the pacing of chat formats. */
  chatKey?: string;
  clock: Clock;
  log: Logger;
}

/** Sends events to a webhook in one format. */
export class WebhookNotifier {
  private readonly secrets: readonly string[];

  constructor(private readonly options: NotifierOptions) {
    this.secrets = options.secrets ?? urlSecrets(options.url);
  }

  enabled(event: NotificationEvent): boolean {
    return this.options.events?.[event] ?? true;
  }

  /** The format's name and the chat it writes to: what pacing needs to know (chat-pace/paced-notifier.ts). */
  get destination(): { format: string; chatKey: string } {
    const format = this.options.format ?? jsonFormat;
    return { format: format.name, chatKey: this.options.chatKey ?? format.name };
  }

  async notify(event: NotificationEvent, data: Record<string, unknown>): Promise<SendResult> {
    if (!this.enabled(event)) return 'disabled';
    const { clock, log } = this.options;
    const format = this.options.format ?? jsonFormat;
    const baseDelay = this.options.retryDelayMs ?? 1000;
    try {
      const at = new Date(clock.now()).toISOString();
      const body = format.body({ event, at, data, message: describeNotification(event, data, at) });
      const answer = await postBounded(this.options.url, {
        json: body,
        timeoutMs: this.options.timeoutMs ?? 5000,
        limit: NOTIFY_ANSWER_LIMIT,
        retry: {
          limit: this.options.retries ?? 3,
          statusCodes: [408, 425, 429, 500, 502, 503, 504],
          delayMs: (attempt) => baseDelay * 2 ** (attempt - 1),
        },
        headers: { 'user-agent': 'lendbot-notifier' },
      });
      if (!answer.ok) {
        log.warn({ event, format: format.name, status: answer.status, detail: answer.detail }, 'notification not delivered');
        return 'failed';
      }
      // A status other than 2xx, or a 2xx whose body says the message was rejected (format.rejection).
      const refused = answer.status < 200 || answer.status > 299;
      const detail = refused ? format.refusal(answer.text) : format.rejection?.(answer.text);
      if (refused || detail !== undefined) {
        log.warn(
          { event, format: format.name, status: answer.status, ...(detail === undefined ? {} : { detail: this.scrub(detail) }) },
          'notification not delivered',
        );
        return 'failed';
      }
      log.debug({ event, format: format.name }, 'notification sent');
      return 'sent';
    } catch (error) {
      log.warn({ event, format: format.name, ...this.failure(error) }, 'notification not delivered');
      return 'failed';
    }
  }

  /** What went wrong, for the log: the code and words, never the URL, a token or the body sent. */
  private failure(error: unknown): Record<string, unknown> {
    if (error instanceof RequestError) return { code: error.code, detail: this.scrub(error.message) };
    // Not an HTTP failure: a bug in a format, say. Logged, never thrown: notifications never stop the daemon.
    return { detail: this.scrub(error instanceof Error ? error.message : String(error)) };
  }

  private scrub(text: string): string {
    return redactSecrets(text, this.secrets);
  }
}

/**
 * A notifier from the config section and the environment; undefined when notifications are off
 * (json without a URL). Throws a ConfigurationError naming what a chosen format lacks. The daemon
 * paces a chat format's messages through chat-pace/paced-notifier.ts.
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
    secrets: target.secrets,
    format: target.format,
    events: section.events,
    retries: section.retries,
    timeoutMs: section.timeout_ms,
    chatKey: target.chatKey,
    ...deps,
  });
}

/**
 * `lendbot doctor`'s notifications line (through messaging-wing.ts): whether the section and the
 * environment name a target, and, only when asked (it lands in someone's chat), whether it takes
 * a test message. What the doctor hands it is every wing's check's (src/daemon/wing-parts.ts).
 */
export async function checkNotifications(input: {
  config: { notifications?: NotificationsConfig | undefined };
  env: Record<string, string | undefined>;
  notify: boolean;
  clock: Clock;
  timeoutMs: number;
}): Promise<{ status: 'ok' | 'skip'; detail: string } | { status: 'fail'; detail: string; fix: string }> {
  const { config, env, notify, clock, timeoutMs } = input;
  const section = config.notifications;
  let target: ReturnType<typeof notificationTarget>;
  try {
    target = notificationTarget(section ?? { format: 'json' }, env);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return {
      status: 'fail',
      detail: error.userText(),
      fix: 'set what the notification format needs (docs/operations.md, "Notifications")',
    };
  }
  if (target === undefined)
    return { status: 'skip', detail: 'no notification target configured (notifications: in the config, LENDBOT_NOTIFY_URL)' };
  const format = section?.format ?? 'json';
  if (!notify) return { status: 'ok', detail: `${format} target configured; --notify sends a test message` };
  const notifier = new WebhookNotifier({ url: target.url, format: target.format, retries: 0, timeoutMs, clock, log: silentLogger });
  const result = await notifier.notify('daily_summary', { note: 'a test message from lendbot doctor: nothing happened' });
  if (result === 'sent') return { status: 'ok', detail: `${format} target accepted a test message` };
  return {
    status: 'fail',
    detail: `${format} target did not accept a test message`,
    fix: 'check LENDBOT_NOTIFY_URL (or the Telegram variables) and run again with --notify',
  };
}
