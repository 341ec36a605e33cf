/**
 * Outbound notifications: one JSON POST per event to a webhook URL of the investor's choosing
 * (a chat bridge, an automation service, a small script), with retries. Each event can be turned
 * off. Sending never throws: a notification that cannot be delivered is logged and dropped, it
 * never stops the daemon.
 *
 * Body: { "event": "offer_placed", "at": "2026-03-10T12:00:00.000Z", "app": "lendbot", "data": {...} }
 */
import got, { HTTPError } from 'got';
import { z } from 'zod';
import type { Clock } from '../clock/clock.js';
import type { Logger } from '../log/logger.js';

export const NOTIFICATION_EVENTS = [
  'offer_placed',
  'offer_funded',
  'loan_late',
  'loan_defaulted',
  'payment_late',
  'payment_missed',
  'daily_summary',
  'daemon_error',
  'budget_nearly_spent',
  'service_degraded',
  'protection_paused',
  'protection_lifted',
  'webhooks_silent',
  'webhooks_refused',
] as const;
export type NotificationEvent = (typeof NOTIFICATION_EVENTS)[number];

/** The `notifications:` config section (every event on unless set to false). */
export const notificationsSchema = z.strictObject({
  url: z.url().optional().describe('where to POST; LENDBOT_NOTIFY_URL overrides (it may hold a token)'),
  events: z.partialRecord(z.enum(NOTIFICATION_EVENTS), z.boolean()).default({}).describe('false turns an event off'),
  retries: z.number().int().min(0).max(10).default(3),
  timeout_ms: z.number().int().positive().default(5000),
  budget_warning_share: z.number().min(0).max(1).default(0.8).describe('share of a data budget that triggers budget_nearly_spent'),
});
export type NotificationsConfig = z.infer<typeof notificationsSchema>;

export type SendResult = 'sent' | 'disabled' | 'failed';

export interface NotifierOptions {
  url: string;
  events?: Partial<Record<NotificationEvent, boolean>>;
  retries?: number;
  timeoutMs?: number;
  /** First retry delay; doubles each time (default 1000 ms). */
  retryDelayMs?: number;
  clock: Clock;
  log: Logger;
}

/** Sends events to a JSON webhook. */
export class WebhookNotifier {
  constructor(private readonly options: NotifierOptions) {}

  enabled(event: NotificationEvent): boolean {
    return this.options.events?.[event] ?? true;
  }

  async notify(event: NotificationEvent, data: Record<string, unknown>): Promise<SendResult> {
    if (!this.enabled(event)) return 'disabled';
    const { clock, log } = this.options;
    const baseDelay = this.options.retryDelayMs ?? 1000;
    try {
      await got.post(this.options.url, {
        json: { event, at: new Date(clock.now()).toISOString(), app: 'lendbot', data },
        timeout: { request: this.options.timeoutMs ?? 5000 },
        retry: {
          limit: this.options.retries ?? 3,
          methods: ['POST'],
          statusCodes: [408, 425, 429, 500, 502, 503, 504],
          calculateDelay: ({ attemptCount, computedValue }) => (computedValue === 0 ? 0 : baseDelay * 2 ** (attemptCount - 1)),
        },
        headers: { 'user-agent': 'lendbot-notifier' },
      });
      log.debug({ event }, 'notification sent');
      return 'sent';
    } catch (error) {
      const status = error instanceof HTTPError ? error.response.statusCode : undefined;
      log.warn({ event, status, err: error }, 'notification not delivered');
      return 'failed';
    }
  }
}

/** A notifier from the config section and the environment; undefined when no URL is set. */
export function notifierFromConfig(
  config: NotificationsConfig | undefined,
  env: Record<string, string | undefined>,
  deps: { clock: Clock; log: Logger },
): WebhookNotifier | undefined {
  const url = env.LENDBOT_NOTIFY_URL?.trim() || config?.url;
  if (!url) return undefined;
  const section = config ?? notificationsSchema.parse({});
  return new WebhookNotifier({ url, events: section.events, retries: section.retries, timeoutMs: section.timeout_ms, ...deps });
}
