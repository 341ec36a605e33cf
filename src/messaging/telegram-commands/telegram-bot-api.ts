/**
 * The three Bot API calls the command poller makes (https://core.telegram.org/bots/api): `getMe`
 * (the bot's username, to tell commands addressed to it from those for another bot), `getUpdates`
 * (a long poll: the call waits up to `timeout` seconds for a message) and `sendMessage`.
 *
 * The bot token sits in every URL, so no error here carries a URL, and the token is redacted from
 * every text that could quote it: the service's description, got's messages (issue 37, item 4: an
 * API answering "Not Found: /bot<token>/getUpdates" once put the token in the log). Answers are
 * read within a limit (postBounded, like every other answer lendbot reads): a getUpdates answer
 * holds at most UPDATES_PER_CALL updates, each message at most 4,096 characters.
 */
import { RequestError } from 'got';
import { z } from 'zod';
import { postBounded } from '../../service/index.js';
import { botTokenSecrets, redactSecrets } from '../notification-formats/secret-text.js';

/** Updates asked for in one getUpdates call (Telegram's default is 100). */
const UPDATES_PER_CALL = 20;
/** Bytes of a getUpdates answer read at most: 20 updates of 4,096 characters, escaped, with room to spare. */
export const UPDATES_ANSWER_LIMIT = 2 * 1024 * 1024;
/** Bytes of a getMe or sendMessage answer read at most (the message sent, echoed back). */
const SMALL_ANSWER_LIMIT = 256 * 1024;

/**
 * An update as lendbot reads it: an id, and the text message if it is one. A message of another
 * shape (a photo, an edit) keeps its id, so its offset moves on, and loses the message.
 */
const updateSchema = z.object({
  update_id: z.number().int().nonnegative(),
  message: z
    .object({
      message_id: z.number().int(),
      date: z.number(),
      chat: z.object({ id: z.number().int(), type: z.string().optional() }),
      from: z.object({ id: z.number().int(), username: z.string().optional() }).optional(),
      text: z.string().optional(),
    })
    .optional()
    .catch(undefined),
});
export type TelegramUpdate = z.infer<typeof updateSchema>;

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
  private readonly secrets: readonly string[];

  constructor(apiUrl: string, token: string) {
    this.base = `${apiUrl.replace(/\/+$/, '')}/bot${token}`;
    this.secrets = botTokenSecrets(token);
  }

  /** The bot's own username (without the @), which commands in a group may name. */
  async getMe(signal?: AbortSignal): Promise<string> {
    const me = await this.call<{ username?: unknown }>('getMe', {}, 10_000, SMALL_ANSWER_LIMIT, signal);
    if (typeof me.username !== 'string' || me.username === '') throw new TelegramApiError('getMe: the answer has no username', undefined);
    return me.username;
  }

  /** Updates after `offset` (the last update_id seen + 1), waiting up to `timeoutSeconds` for one. */
  async getUpdates(offset: number | undefined, timeoutSeconds: number, signal?: AbortSignal): Promise<TelegramUpdate[]> {
    const body = {
      ...(offset === undefined ? {} : { offset }),
      limit: UPDATES_PER_CALL,
      timeout: timeoutSeconds,
      allowed_updates: ['message'],
    };
    const updates = await this.call<unknown>('getUpdates', body, (timeoutSeconds + 10) * 1000, UPDATES_ANSWER_LIMIT, signal);
    return updatesOf(updates);
  }

  /** Sends `text`; `html` when it is Telegram's HTML (parse_mode HTML, e.g. a <pre> block). */
  async sendMessage(chatId: string, text: string, options: { html?: boolean; signal?: AbortSignal } = {}): Promise<void> {
    const body = { chat_id: chatId, text, link_preview_options: { is_disabled: true }, ...(options.html ? { parse_mode: 'HTML' } : {}) };
    await this.call('sendMessage', body, 10_000, SMALL_ANSWER_LIMIT, options.signal);
  }

  private async call<T>(
    method: string,
    json: Record<string, unknown>,
    timeoutMs: number,
    limit: number,
    signal: AbortSignal | undefined,
  ): Promise<T> {
    let answer;
    try {
      answer = await postBounded(`${this.base}/${method}`, {
        json,
        timeoutMs,
        limit,
        headers: { 'user-agent': 'lendbot-commands' },
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      if (error instanceof RequestError) throw this.error(`${method}: ${error.code}`, undefined);
      throw this.error(`${method}: ${error instanceof Error ? error.name : 'failed'}`, undefined);
    }
    if (!answer.ok) throw this.error(`${method}: ${answer.detail}`, answer.status);
    let parsed: BotAnswer<T> | undefined;
    try {
      parsed = JSON.parse(answer.text) as BotAnswer<T>;
    } catch {
      // not JSON: the status says enough
    }
    const description = typeof parsed?.description === 'string' ? ` ${parsed.description}` : '';
    if (answer.status < 200 || answer.status > 299) throw this.error(`${method}: HTTP ${answer.status}${description}`, answer.status);
    if (parsed?.ok !== true || parsed.result === undefined)
      throw this.error(`${method}: ${description.trim() || 'the answer did not say ok'}`, answer.status);
    return parsed.result;
  }

  /** An error whose words never hold the token, whatever the service or got put in them. */
  private error(message: string, status: number | undefined): TelegramApiError {
    return new TelegramApiError(redactSecrets(message, this.secrets), status);
  }
}

/** The updates of a getUpdates result; an item without an id is skipped (its offset is unknown). */
function updatesOf(result: unknown): TelegramUpdate[] {
  if (!Array.isArray(result)) throw new TelegramApiError('getUpdates: the result is not a list', undefined);
  return result.flatMap((item) => {
    const parsed = updateSchema.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  });
}
