/**
 * The `notifications.telegram_commands` section: whether lendbot answers commands sent to its
 * Telegram bot, and from which chats. The bot token is the notifications' own
 * (LENDBOT_TELEGRAM_BOT_TOKEN, from the environment); a chat not listed is ignored and logged.
 */
import { z } from 'zod';

export const telegramCommandsSchema = z.strictObject({
  enabled: z.boolean().default(false).describe('long-poll the bot for commands (needs format: telegram)'),
  allowed_chat_ids: z
    .array(
      z.union([z.number().int(), z.string().regex(/^-?\d+$/, { error: 'a chat id is a number, such as 123456789 or -1001234567890' })]),
    )
    .default([])
    .describe('the chats whose commands are obeyed; empty: only LENDBOT_TELEGRAM_CHAT_ID'),
  poll_timeout_seconds: z.number().int().min(1).max(50).default(30).describe('how long one getUpdates call waits for a message'),
  max_age_minutes: z.number().int().min(1).max(1440).default(5).describe('a command older than this (real time) is answered, not obeyed'),
});
export type TelegramCommandsConfig = z.infer<typeof telegramCommandsSchema>;

/** The allowed chat ids as strings (Telegram's ids exceed no double, but compare as text). */
export function allowedChats(config: TelegramCommandsConfig, defaultChatId: string | undefined): Set<string> {
  const listed = config.allowed_chat_ids.map(String);
  return new Set(
    listed.length > 0 ? listed : defaultChatId !== undefined && /^-?\d+$/.test(defaultChatId.trim()) ? [defaultChatId.trim()] : [],
  );
}
