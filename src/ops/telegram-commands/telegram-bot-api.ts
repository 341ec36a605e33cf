/**
 * The two Bot API calls the command poller makes (https://core.telegram.org/bots/api):
 * `getUpdates` (a long poll: the call waits up to `timeout` seconds for a message) and
 * `sendMessage`. The bot token sits in every URL, so no error or log line here carries a URL:
 * failures are told by the service's description or the network error's code.
 */
import got, { HTTPError, RequestError } from 'got';

/** A text message as getUpdates returns it (the fields lendbot reads). */
export interface TelegramUpdate {
  update_id: number;
  message?: {
    message_id: number;
    date: number;
    chat: { id: number; type?: string };
    from?: { id: number; username?: string };
    text?: string;
  };
}

/** A failure of a Bot API call, in words that never hold the token. */
export class TelegramApiError extends Error {
  constructor(
    message: string,
    readonly status: number | undefined,
  ) {
    super(message);
    this.name = 'TelegramApiError';
  }
}

interface BotAnswer<T> {
  ok?: boolean;
  result?: T;
  description?: string;
}

export class TelegramBotApi {
  private readonly base: string;

  constructor(apiUrl: string, token: string) {
    this.base = `${apiUrl.replace(/\/+$/, '')}/bot${token}`;
  }

  /** Updates after `offset` (the last update_id seen + 1), waiting up to `timeoutSeconds` for one. */
  async getUpdates(offset: number | undefined, timeoutSeconds: number, signal?: AbortSignal): Promise<TelegramUpdate[]> {
    const body = { ...(offset === undefined ? {} : { offset }), timeout: timeoutSeconds, allowed_updates: ['message'] };
    return this.call<TelegramUpdate[]>('getUpdates', body, (timeoutSeconds + 10) * 1000, signal);
  }

  /** Sends `text`; `html` when it is Telegram's HTML (parse_mode HTML, e.g. a <pre> block). */
  async sendMessage(chatId: string, text: string, options: { html?: boolean; signal?: AbortSignal } = {}): Promise<void> {
    const body = { chat_id: chatId, text, link_preview_options: { is_disabled: true }, ...(options.html ? { parse_mode: 'HTML' } : {}) };
    await this.call('sendMessage', body, 10_000, options.signal);
  }

  private async call<T>(method: string, json: Record<string, unknown>, timeoutMs: number, signal: AbortSignal | undefined): Promise<T> {
    try {
      const answer = await got
        .post(`${this.base}/${method}`, {
          json,
          timeout: { request: timeoutMs },
          retry: { limit: 0 },
          headers: { 'user-agent': 'lendbot-commands' },
          ...(signal ? { signal } : {}),
        })
        .json<BotAnswer<T>>();
      if (answer.ok !== true || answer.result === undefined)
        throw new TelegramApiError(`${method}: ${answer.description ?? 'the answer did not say ok'}`, undefined);
      return answer.result;
    } catch (error) {
      if (error instanceof TelegramApiError) throw error;
      if (error instanceof HTTPError) {
        let description = '';
        try {
          description = (JSON.parse(String(error.response.body)) as BotAnswer<unknown>).description ?? '';
        } catch {
          // not JSON: the status alone says enough
        }
        throw new TelegramApiError(
          `${method}: HTTP ${error.response.statusCode}${description ? ` ${description}` : ''}`,
          error.response.statusCode,
        );
      }
      if (error instanceof RequestError) throw new TelegramApiError(`${method}: ${error.code}`, undefined);
      throw new TelegramApiError(`${method}: ${error instanceof Error ? error.name : 'failed'}`, undefined);
    }
  }
}
