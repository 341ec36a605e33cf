/**
 * The `notifications:` config section (the events a notification can be about are the domain's,
 * src/domain/notification-events.ts): apart from the
 * notifier (notifier.ts), which sends with got, so reading a config does not load the HTTP client
 * (the backtest reads the daemon's config for its risk limits).
 */
import { z } from 'zod';
import { NOTIFICATION_EVENTS } from '../domain/index.js';
import { chatPaceSchema } from './chat-pace/chat-pace-config.js';
import { NOTIFICATION_FORMATS } from './notification-formats/notification-format.js';
import { DEFAULT_TELEGRAM_API_URL } from './notification-formats/telegram.js';
import { telegramCommandsSchema } from './telegram-commands/telegram-commands-config.js';

/** How often the digest is sent (src/messaging/digest/digest-sender.ts). */
const DIGEST_PERIODS = ['off', 'day', 'week'] as const;

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
  pace: chatPaceSchema
    .prefault({})
    .describe(
      "how fast lendbot writes to a chat (telegram, slack, discord): Telegram's per-chat limit by default; offers waiting together go as one message",
    ),
  telegram_commands: telegramCommandsSchema
    .optional()
    .describe('answer /status, /profit, /pause, /resume, /approve and /reject from allowed Telegram chats (format: telegram)'),
});
export type NotificationsConfig = z.infer<typeof notificationsSchema>;
