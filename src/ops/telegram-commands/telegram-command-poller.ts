/**
 * Receives the lender's commands from Telegram by long polling `getUpdates` and answers each with
 * `sendMessage` (telegram-command-replies.ts says what each does). Bounded: one call in flight,
 * a back-off doubling from 1 s to 60 s (real time) after a failure, answers cut to Telegram's
 * 4,096 characters. A message from a chat not allowed gets no answer at all (an answer would tell
 * a stranger the bot is alive) and is logged with its chat id; a command older than
 * `maxAgeMinutes` (a backlog after downtime) is answered, not obeyed. The last update handled is
 * kept in the state table, so a restart never obeys a command twice. The bot token is never
 * logged: TelegramBotApi's errors hold no URL.
 */
import type { Clock } from '../../clock/clock.js';
import type { Logger } from '../../log/logger.js';
import type { StateRepository } from '../../store/index.js';
import { clip } from '../notification-formats/plain-words.js';
import { escapeHtml } from '../notification-formats/telegram.js';
import type { TelegramBotApi, TelegramUpdate } from './telegram-bot-api.js';
import { answerCommand, type CommandActions } from './telegram-command-replies.js';

export const TELEGRAM_OFFSET_KEY = 'telegram_updates_offset';
const MAX_TEXT = 4096;
const FIRST_BACKOFF_MS = 1000;
const MAX_BACKOFF_MS = 60_000;

export interface CommandPollerDeps {
  api: TelegramBotApi;
  actions: CommandActions;
  allowedChats: ReadonlySet<string>;
  state: StateRepository;
  /** Real time: message dates and back-off are real seconds, even in the sandbox. */
  realClock: Clock;
  log: Logger;
  pollTimeoutSeconds: number;
  maxAgeMinutes: number;
}

export class TelegramCommandPoller {
  private running = false;
  private loop: Promise<void> | undefined;
  private readonly abort = new AbortController();
  private wake: (() => void) | undefined;

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
        const stored = this.deps.state.get(TELEGRAM_OFFSET_KEY);
        const updates = await api.getUpdates(
          stored === undefined ? undefined : Number(stored),
          this.deps.pollTimeoutSeconds,
          this.abort.signal,
        );
        for (const update of updates) {
          if (!this.running) break;
          // Moved before obeying: a crash in the middle loses at most that command, never obeys it twice.
          this.deps.state.set(TELEGRAM_OFFSET_KEY, String(update.update_id + 1), this.deps.realClock.now());
          await this.handle(update);
        }
        backoffMs = FIRST_BACKOFF_MS;
      } catch (error) {
        if (!this.running) break;
        log.warn(
          { detail: error instanceof Error ? error.message : String(error), retryInMs: backoffMs },
          'Telegram commands: getUpdates failed',
        );
        await this.sleep(backoffMs);
        backoffMs = Math.min(MAX_BACKOFF_MS, backoffMs * 2);
      }
    }
  }

  private async handle(update: TelegramUpdate): Promise<void> {
    const { log, realClock } = this.deps;
    const message = update.message;
    if (message?.text === undefined) return;
    const chatId = String(message.chat.id);
    if (!this.deps.allowedChats.has(chatId)) {
      log.warn({ chatId, updateId: update.update_id }, 'Telegram command from a chat not allowed: ignored, not answered');
      return;
    }
    const ageMs = realClock.now() - message.date * 1000;
    const by = message.from?.username ?? chatId;
    const reply =
      ageMs > this.deps.maxAgeMinutes * 60_000
        ? {
            text: `Not obeyed: this command was sent ${Math.round(ageMs / 60_000)} minutes ago, while lendbot was not listening. Send it again if you still want it.`,
          }
        : answerCommand(this.deps.actions, message.text, by);
    log.info({ chatId, command: message.text.split(/\s/)[0] }, 'Telegram command answered');
    // Cut the visible text, then escape it: the limit counts what the chat shows.
    const text = clip(reply.text, MAX_TEXT);
    try {
      await this.deps.api.sendMessage(chatId, reply.monospace ? `<pre>${escapeHtml(text)}</pre>` : text, {
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
