/**
 * Receives the lender's commands from Telegram by long polling `getUpdates` and answers each with
 * `sendMessage` (telegram-command-replies.ts says what each does). Bounded: one call in flight,
 * a back-off doubling from 1 s to 60 s (real time) after a failure, answers cut to Telegram's
 * 4,096 characters, a message longer than that refused unread, and only its command word, cut,
 * logged. A message from a chat not allowed gets no answer at all (an answer would tell a stranger
 * the bot is alive) and is logged with its chat id. A command addressed to another bot
 * (`/pause@otherbot` in a group) is ignored: the bot learns its own name with getMe first. A
 * command older than `maxAgeMinutes` (a backlog after downtime), or dated in the future beyond
 * CLOCK_TOLERANCE_MS, is answered, not obeyed. Every update id handled is recorded in the store
 * before it is obeyed, so a replayed id is ignored, across restarts (issue 37, item 4); the next
 * offset is kept in the state table. The bot token is never logged: TelegramBotApi's errors hold
 * no URL and redact it.
 */
import type { Clock } from '../../clock/clock.js';
import type { Logger } from '../../log/logger.js';
import type { SendWindows } from '../chat-pace/send-windows.js';
import type { StateRepository, TelegramUpdatesRepository } from '../../store/index.js';
import { clip, escapeHtml } from '../notification-formats/plain-words.js';
import type { TelegramBotApi, TelegramUpdate } from './telegram-bot-api.js';
import { answerCommand, parseCommand, type CommandActions } from './telegram-command-replies.js';

export const TELEGRAM_OFFSET_KEY = 'telegram_updates_offset';
/** Telegram's limit, for the answers sent and the messages read. */
const MAX_TEXT = 4096;
/** A command's date may be ahead of this machine's clock by this much (clocks drift a little). */
const CLOCK_TOLERANCE_MS = 60_000;
/** Characters of a command word logged at most. */
const LOGGED_COMMAND = 32;
const FIRST_BACKOFF_MS = 1000;
const MAX_BACKOFF_MS = 60_000;

export interface CommandPollerDeps {
  api: TelegramBotApi;
  actions: CommandActions;
  allowedChats: ReadonlySet<string>;
  state: StateRepository;
  /** The update ids already handled: a replayed one is ignored. */
  updates: TelegramUpdatesRepository;
  /** Real time: message dates and back-off are real seconds, even in the sandbox. */
  realClock: Clock;
  log: Logger;
  pollTimeoutSeconds: number;
  maxAgeMinutes: number;
  /** The chats' send windows, shared with the notifications (chat-pace/send-windows.ts): an answer takes its turn too. */
  windows?: SendWindows | undefined;
}

export class TelegramCommandPoller {
  private running = false;
  private loop: Promise<void> | undefined;
  private readonly abort = new AbortController();
  private wake: (() => void) | undefined;
  /** The bot's username (getMe), lower-cased: commands naming another bot are not for it. */
  private username: string | undefined;

  constructor(private readonly deps: CommandPollerDeps) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Stops polling: the call in flight is cancelled and a back-off cut short. */
  async stop(): Promise<void> {
    this.running = false;
    this.abort.abort();
    this.wake?.();
    await this.loop;
  }

  private async run(): Promise<void> {
    const { api, log } = this.deps;
    let backoffMs = FIRST_BACKOFF_MS;
    while (this.running) {
      try {
        this.username ??= (await api.getMe(this.abort.signal)).toLowerCase();
        const stored = this.deps.state.get(TELEGRAM_OFFSET_KEY);
        const updates = await api.getUpdates(
          stored === undefined ? undefined : Number(stored),
          this.deps.pollTimeoutSeconds,
          this.abort.signal,
        );
        for (const update of updates) {
          if (!this.running) break;
          // Moved and recorded before obeying: a crash in the middle loses at most that command, never obeys it twice.
          const nowMs = this.deps.realClock.now();
          this.deps.state.set(TELEGRAM_OFFSET_KEY, String(update.update_id + 1), nowMs);
          if (!this.deps.updates.claim(update.update_id, nowMs)) {
            log.warn({ updateId: update.update_id }, 'Telegram update already handled: ignored (a replay)');
            continue;
          }
          await this.handle(update);
        }
        backoffMs = FIRST_BACKOFF_MS;
      } catch (error) {
        if (!this.running) break;
        log.warn(
          { detail: error instanceof Error ? error.message : String(error), retryInMs: backoffMs },
          'Telegram commands: the Bot API call failed',
        );
        await this.sleep(backoffMs);
        backoffMs = Math.min(MAX_BACKOFF_MS, backoffMs * 2);
      }
    }
  }

  private async handle(update: TelegramUpdate): Promise<void> {
    const { log } = this.deps;
    const message = update.message;
    if (message?.text === undefined) return;
    const chatId = String(message.chat.id);
    if (!this.deps.allowedChats.has(chatId)) {
      log.warn({ chatId, updateId: update.update_id }, 'Telegram command from a chat not allowed: ignored, not answered');
      return;
    }
    const text = message.text;
    // Only the first word, cut: a message may be long, and its words the lender's own.
    const command = clip(text.trimStart().split(/\s/, 1)[0] ?? '', LOGGED_COMMAND);
    const addressee = text.length <= MAX_TEXT ? parseCommand(text)?.bot : undefined;
    if (addressee !== undefined && addressee.toLowerCase() !== this.username) {
      log.info({ chatId, command, updateId: update.update_id }, 'Telegram command addressed to another bot: ignored, not answered');
      return;
    }
    const refusal = this.refusal(message.date * 1000, text.length);
    const by = message.from?.username ?? chatId;
    const reply = refusal === undefined ? answerCommand(this.deps.actions, text, by) : { text: refusal };
    log.info({ chatId, command, ...(refusal === undefined ? {} : { obeyed: false }) }, 'Telegram command answered');
    // Cut the visible text, then escape it: the limit counts what the chat shows.
    const shown = clip(reply.text, MAX_TEXT);
    try {
      await this.deps.windows?.take(chatId);
      await this.deps.api.sendMessage(chatId, reply.monospace ? `<pre>${escapeHtml(shown)}</pre>` : shown, {
        html: reply.monospace === true,
        signal: this.abort.signal,
      });
    } catch (error) {
      if (this.running)
        log.warn(
          { chatId, detail: error instanceof Error ? error.message : String(error) },
          'Telegram commands: the answer could not be sent',
        );
    }
  }

  /** Why a message from an allowed chat is answered but not obeyed, or undefined when it is obeyed. */
  private refusal(sentAtMs: number, length: number): string | undefined {
    if (length > MAX_TEXT) return `Not obeyed: the message is longer than ${MAX_TEXT} characters. Send the command alone.`;
    const ageMs = this.deps.realClock.now() - sentAtMs;
    if (ageMs > this.deps.maxAgeMinutes * 60_000)
      return `Not obeyed: this command was sent ${Math.round(ageMs / 60_000)} minutes ago, while lendbot was not listening. Send it again if you still want it.`;
    if (ageMs < -CLOCK_TOLERANCE_MS)
      return `Not obeyed: this command is dated ${Math.round(-ageMs / 1000)} s ahead of lendbot's clock. Check the clock of lendbot's machine, then send it again.`;
    return undefined;
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }
}
