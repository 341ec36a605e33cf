/**
 * Where and how notifications go, from the `notifications:` section and the environment, checked
 * with zod: json, slack and discord POST to a webhook URL (LENDBOT_NOTIFY_URL, or `url` in the
 * file); telegram needs its bot token and chat id from the environment (never the file: the token
 * controls the bot). A format chosen without what it needs stops the start with a message naming
 * every missing variable; json without a URL keeps notifications off, as before formats existed.
 */
import { z } from 'zod';
import { ConfigurationError } from '../../domain/index.js';
import { discordFormat } from './discord.js';
import { jsonFormat } from './json.js';
import type { NotificationFormat, NotificationFormatName } from './notification-format.js';
import { botTokenSecrets, urlSecrets } from './secret-text.js';
import { slackFormat } from './slack.js';
import { DEFAULT_TELEGRAM_API_URL, telegramFormat, telegramSendMessageUrl } from './telegram.js';

export interface NotificationTarget {
  /** Holds a secret for every chat service (a webhook token, Telegram's bot token): never log it. */
  url: string;
  format: NotificationFormat;
  /** What an error text must never show: the URL's secret parts, and Telegram's token (secret-text.ts). */
  secrets: string[];
  /** The chat the messages land in, whose per-chat limit paces them (Telegram's chat id; a webhook's one channel). */
  chatKey: string;
}

export interface TargetSettings {
  format: NotificationFormatName;
  url?: string | undefined;
  telegram_api_url?: string | undefined;
}

type Env = Record<string, string | undefined>;

/** An environment variable: trimmed, and empty counts as unset. */
const variable = (name: string) =>
  z.preprocess(
    (value) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined),
    z.string({ error: `${name} is not set` }),
  );

const webhookEnv = z.object({
  // The message never repeats the value: the URL may carry a token.
  LENDBOT_NOTIFY_URL: variable('LENDBOT_NOTIFY_URL')
    .pipe(z.url({ error: 'LENDBOT_NOTIFY_URL is not a URL (e.g. https://hooks.slack.com/services/...)' }))
    .optional(),
});

export const telegramEnvSchema = z.object({
  LENDBOT_TELEGRAM_BOT_TOKEN: variable('LENDBOT_TELEGRAM_BOT_TOKEN').pipe(
    z.string().regex(/^\d+:[A-Za-z0-9_-]{20,}$/, {
      error: 'LENDBOT_TELEGRAM_BOT_TOKEN is not a bot token (digits, a colon, then letters, as @BotFather gives it)',
    }),
  ),
  LENDBOT_TELEGRAM_CHAT_ID: variable('LENDBOT_TELEGRAM_CHAT_ID').pipe(
    z.string().regex(/^(-?\d+|@[A-Za-z][A-Za-z0-9_]{4,})$/, {
      error: 'LENDBOT_TELEGRAM_CHAT_ID is not a chat id (a number such as -1001234567890, or @channelname)',
    }),
  ),
});

const HOW_TO = 'see docs/operations.md#notifications';
const SERVICE_NAME: Record<NotificationFormatName, string> = {
  json: 'JSON',
  slack: 'Slack incoming',
  discord: 'Discord',
  telegram: 'Telegram',
};

function fail(format: NotificationFormatName, problems: ReadonlyArray<{ message: string }>): never {
  throw new ConfigurationError(
    `notifications.format is ${format}, but ${problems.map((problem) => problem.message).join('; ')}: ${HOW_TO}`,
  );
}

/** The target, or undefined when notifications are off (json without a URL). */
export function notificationTarget(settings: TargetSettings, env: Env): NotificationTarget | undefined {
  const { format } = settings;
  if (format === 'telegram') {
    const parsed = telegramEnvSchema.safeParse(env);
    if (!parsed.success) fail(format, parsed.error.issues);
    const apiUrl = settings.telegram_api_url ?? DEFAULT_TELEGRAM_API_URL;
    const url = telegramSendMessageUrl(apiUrl, parsed.data.LENDBOT_TELEGRAM_BOT_TOKEN);
    return {
      url,
      format: telegramFormat(parsed.data.LENDBOT_TELEGRAM_CHAT_ID),
      secrets: [...urlSecrets(url), ...botTokenSecrets(parsed.data.LENDBOT_TELEGRAM_BOT_TOKEN)],
      chatKey: parsed.data.LENDBOT_TELEGRAM_CHAT_ID,
    };
  }
  const parsed = webhookEnv.safeParse(env);
  if (!parsed.success) fail(format, parsed.error.issues);
  const url = parsed.data.LENDBOT_NOTIFY_URL ?? settings.url;
  if (url === undefined) {
    if (format === 'json') return undefined;
    fail(format, [{ message: `no webhook URL is set (set LENDBOT_NOTIFY_URL to the ${SERVICE_NAME[format]} webhook's URL)` }]);
  }
  return {
    url,
    format: format === 'slack' ? slackFormat : format === 'discord' ? discordFormat : jsonFormat,
    secrets: urlSecrets(url),
    chatKey: `${format} webhook`,
  };
}
