/**
 * The `notifications.pace` section: how fast lendbot writes to one chat, and how much waits.
 * Telegram allows a bot about one message a second in a chat and 20 a minute in a group
 * (https://core.telegram.org/bots/faq#my-bot-is-hitting-limits-how-do-i-avoid-this); Slack's
 * incoming webhooks one a second, Discord's about 30 a minute. The defaults keep within all of
 * them. Only the chat formats are paced: the json format feeds a program, one document per event.
 */
import { z } from 'zod';

export const chatPaceSchema = z.strictObject({
  min_seconds_between: z
    .number()
    .min(0)
    .max(3600)
    .default(1)
    .describe('seconds at least between two messages to a chat (Telegram: about 1)'),
  per_minute: z.number().int().min(1).max(600).default(20).describe('messages at most to a chat in any minute (Telegram groups: 20)'),
  queue_limit: z
    .number()
    .int()
    .min(1)
    .max(10_000)
    .default(50)
    .describe('messages waiting at most; beyond it a message is counted, not kept, and the next one sent says how many'),
});
export type ChatPaceConfig = z.infer<typeof chatPaceSchema>;

/** The limits as the pacer reads them. */
export interface PaceLimits {
  minGapMs: number;
  perMinute: number;
}

export function paceLimits(config: ChatPaceConfig): PaceLimits {
  return { minGapMs: Math.round(config.min_seconds_between * 1000), perMinute: config.per_minute };
}
