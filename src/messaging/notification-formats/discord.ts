/**
 * Discord webhooks (https://discord.com/developers/docs/resources/webhook#execute-webhook): one
 * embed with the title, the sentence as description, a colour by severity, the figures as inline
 * fields and the time. Discord answers 204 No Content, or 4xx with `{ "message", "code" }`.
 *
 * Limits kept (https://discord.com/developers/docs/resources/message#embed-object-embed-limits):
 * title 256 characters, description 4,096, at most 25 fields, field name 256 and value 1,024 (never
 * empty), footer 2,048, and 6,000 characters over the whole embed.
 */
import type { Severity } from './notification-message.js';
import { errorText, type NotificationFormat } from './notification-format.js';
import { clip } from './plain-words.js';

const DISCORD_LIMITS = {
  title: 256,
  description: 4096,
  fields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footer: 2048,
  total: 6000,
} as const;

const COLOUR: Record<Severity, number> = { info: 0x3b82f6, good: 0x22c55e, warning: 0xf59e0b, bad: 0xef4444 };
/** Values up to this long sit side by side (Discord shows three inline fields a row). */
const INLINE_UP_TO = 40;

interface DiscordEmbed {
  title: string;
  description?: string;
  color: number;
  fields: Array<{ name: string; value: string; inline: boolean }>;
  footer: { text: string };
  timestamp: string;
}

export const discordFormat: NotificationFormat = {
  name: 'discord',
  body({ message }) {
    const footer = 'lendbot';
    const title = clip(message.title, DISCORD_LIMITS.title);
    let budget = DISCORD_LIMITS.total - title.length - footer.length;
    const description =
      message.description === undefined ? undefined : clip(message.description, Math.min(DISCORD_LIMITS.description, budget - 500));
    budget -= description?.length ?? 0;
    const fields: DiscordEmbed['fields'] = [];
    for (const field of message.fields.slice(0, DISCORD_LIMITS.fields)) {
      const name = clip(field.label, DISCORD_LIMITS.fieldName);
      const room = Math.min(DISCORD_LIMITS.fieldValue, budget - name.length);
      if (room < 1) break; // the embed's total is spent
      const value = clip(field.value, room);
      budget -= name.length + value.length;
      fields.push({ name, value, inline: value.length <= INLINE_UP_TO });
    }
    const embed: DiscordEmbed = {
      title,
      ...(description === undefined ? {} : { description }),
      color: COLOUR[message.severity],
      fields,
      footer: { text: footer },
      timestamp: message.at,
    };
    return { embeds: [embed] };
  },
  refusal: (bodyText) => errorText(bodyText, ['message']),
};
