/**
 * `lendbot doctor`'s notifications line (docs/operations.md, "Notifications"): whether the
 * section and the environment name a target, and, only when asked (it lands in someone's chat),
 * whether it takes a test message. Reached through the wing's entry (messaging-wing.ts).
 */
import type { Clock } from '../clock/clock.js';
import { AppError } from '../domain/index.js';
import { silentLogger } from '../log/logger.js';
import { notificationTarget } from './notification-formats/notification-target.js';
import type { NotificationsConfig } from './notifications-config.js';
import { WebhookNotifier } from './notifier.js';

/** What the doctor hands a wing's check. */
export interface WingCheckInput {
  config: { notifications?: NotificationsConfig | undefined };
  env: Record<string, string | undefined>;
  /** `--notify`: send a test message. */
  notify: boolean;
  clock: Clock;
  timeoutMs: number;
}

/** One doctor line's status, what it found and, when it did not pass, the fix. */
export type WingCheckOutcome = { status: 'ok' | 'skip'; detail: string } | { status: 'fail'; detail: string; fix: string };

export async function checkNotifications({ config, env, notify, clock, timeoutMs }: WingCheckInput): Promise<WingCheckOutcome> {
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
