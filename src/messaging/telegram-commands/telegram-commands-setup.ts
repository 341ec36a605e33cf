/**
 * The Telegram command poller from the `notifications:` section and the environment, or
 * undefined when commands are off. They answer through the notifications' own bot
 * (format: telegram, LENDBOT_TELEGRAM_BOT_TOKEN); asking for them with another format stops the
 * start with a message saying so.
 */
import type { Clock } from '../../clock/clock.js';
import type { Logger } from '../../log/logger.js';
import type { SendWindows } from '../chat-pace/send-windows.js';
import { ConfigurationError } from '../../domain/index.js';
import type { StateRepository, TelegramUpdatesRepository } from '../../store/index.js';
import { telegramEnvSchema } from '../notification-formats/notification-target.js';
import { DEFAULT_TELEGRAM_API_URL } from '../notification-formats/telegram.js';
import type { NotificationsConfig } from '../notifications-config.js';
import { TelegramBotApi } from './telegram-bot-api.js';
import { TelegramCommandPoller } from './telegram-command-poller.js';
import type { CommandActions } from './telegram-command-replies.js';
import { allowedChats } from './telegram-commands-config.js';

export function telegramCommandsFromConfig(
  section: NotificationsConfig | undefined,
  env: Record<string, string | undefined>,
  deps: {
    actions: CommandActions;
    state: StateRepository;
    updates: TelegramUpdatesRepository;
    realClock: Clock;
    log: Logger;
    /** Shared with the notifications, so answers and notifications together keep the chat's limit. */
    windows?: SendWindows | undefined;
  },
): TelegramCommandPoller | undefined {
  const commands = section?.telegram_commands;
  if (commands === undefined || !commands.enabled) return undefined;
  if (section?.format !== 'telegram') {
    throw new ConfigurationError(
      'notifications.telegram_commands.enabled needs notifications.format: telegram (the commands use its bot): see docs/operations.md#telegram-commands',
    );
  }
  const parsed = telegramEnvSchema.safeParse(env);
  if (!parsed.success)
    throw new ConfigurationError(
      `Telegram commands: ${parsed.error.issues.map((issue) => issue.message).join('; ')}: see docs/operations.md#telegram-commands`,
    );
  const chats = allowedChats(commands, parsed.data.LENDBOT_TELEGRAM_CHAT_ID);
  if (chats.size === 0) {
    throw new ConfigurationError(
      'Telegram commands: no chat is allowed (LENDBOT_TELEGRAM_CHAT_ID is a @channel name): list the chat ids in notifications.telegram_commands.allowed_chat_ids',
    );
  }
  return new TelegramCommandPoller({
    ...deps,
    api: new TelegramBotApi(section.telegram_api_url ?? DEFAULT_TELEGRAM_API_URL, parsed.data.LENDBOT_TELEGRAM_BOT_TOKEN),
    allowedChats: chats,
    pollTimeoutSeconds: commands.poll_timeout_seconds,
    maxAgeMinutes: commands.max_age_minutes,
  });
}
