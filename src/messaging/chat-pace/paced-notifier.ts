/**
 * The daemon's notifier, paced when it writes to a chat: telegram, slack and discord messages go
 * through a ChatOutbox on the chat's send window (shared with Telegram's command answers); the
 * json format feeds a program, so it keeps one document per event, sent as it comes.
 */
import type { Logger } from '../../log/logger.js';
import type { WebhookNotifier } from '../notifier.js';
import { ChatOutbox, type MessageSender } from './chat-outbox.js';
import type { ChatPaceConfig } from './chat-pace-config.js';
import type { SendWindows } from './send-windows.js';

export function pacedNotifier(
  notifier: WebhookNotifier | undefined,
  pace: ChatPaceConfig,
  windows: SendWindows,
  log: Logger,
): MessageSender | undefined {
  if (notifier === undefined) return undefined;
  const { format, chatKey } = notifier.destination;
  if (format === 'json') return notifier;
  return new ChatOutbox({ sender: notifier, chatId: chatKey, windows, queueLimit: pace.queue_limit, log });
}
