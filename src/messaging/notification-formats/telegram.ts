/**
 * Telegram (https://core.telegram.org/bots/api#sendmessage): `POST <api>/bot<TOKEN>/sendMessage`
 * with `{ chat_id, text, parse_mode: "HTML" }`: the title in bold, the sentence, then one
 * "Label: value" line per figure, every piece HTML-escaped. Telegram answers
 * `{ "ok": true, "result": {...} }`, or `{ "ok": false, "error_code", "description" }`.
 *
 * The bot token sits in the URL, so the sender never logs the URL; it and the chat id come from
 * the environment (LENDBOT_TELEGRAM_BOT_TOKEN, LENDBOT_TELEGRAM_CHAT_ID), never from a file.
 */
import type { Severity } from './notification-message.js';
import { errorText, type NotificationFormat } from './notification-format.js';
import { clip, escapeHtml, utcTime } from './plain-words.js';

export const DEFAULT_TELEGRAM_API_URL = 'https://api.telegram.org';
/** Telegram's limit is 4,096 characters of text after the HTML is parsed. */
const MAX_TEXT = 4096;

const EMOJI: Record<Severity, string> = { info: 'ℹ️', good: '✅', warning: '⚠️', bad: '🚨' };

/** The sendMessage URL for a bot token under an API base (the real one, or a test's fixture server). */
export function telegramSendMessageUrl(apiUrl: string, botToken: string): string {
  return `${apiUrl.replace(/\/+$/, '')}/bot${botToken}/sendMessage`;
}

export function telegramFormat(chatId: string): NotificationFormat {
  return {
    name: 'telegram',
    body({ message }) {
      // Lines are added while the visible text (before escaping) stays within the limit.
      const lines: Array<{ visible: string; html: string }> = [
        { visible: `${EMOJI[message.severity]} ${message.title}`, html: `${EMOJI[message.severity]} <b>${escapeHtml(message.title)}</b>` },
      ];
      if (message.description !== undefined) lines.push({ visible: message.description, html: escapeHtml(message.description) });
      for (const field of message.fields)
        lines.push({ visible: `${field.label}: ${field.value}`, html: `${escapeHtml(field.label)}: <b>${escapeHtml(field.value)}</b>` });
      const footer = `lendbot · ${utcTime(message.at)}`;
      lines.push({ visible: footer, html: `<i>${escapeHtml(footer)}</i>` });
      const kept: string[] = [];
      let length = 0;
      for (const line of lines) {
        const room = MAX_TEXT - length - (kept.length > 0 ? 1 : 0);
        if (line.visible.length > room) {
          // Cut the raw text, then escape it: never half an entity.
          if (room > 1) kept.push(escapeHtml(clip(line.visible, room)));
          break;
        }
        kept.push(line.html);
        length += line.visible.length + (kept.length > 1 ? 1 : 0);
      }
      return { chat_id: chatId, text: kept.join('\n'), parse_mode: 'HTML' };
    },
    refusal: (bodyText) => errorText(bodyText, ['description']),
    rejection(bodyText) {
      try {
        const parsed = JSON.parse(bodyText) as { ok?: unknown; description?: unknown };
        if (parsed.ok === true) return undefined;
        return typeof parsed.description === 'string' ? parsed.description : 'the answer did not say ok';
      } catch {
        return 'the answer was not JSON';
      }
    },
  };
}
