/**
 * When the next message to a chat may go, one window per chat: at least `minGapMs` after the
 * last message and at most `perMinute` in any 60 s. Every writer to a chat (the notifications'
 * outbox, the answers to Telegram commands) takes its turn here, so together they stay within
 * the chat's limit. A window keeps the times of the last `perMinute` messages only; the windows
 * are one per chat lendbot writes to (the notification chat and the allowed command chats).
 */
import type { Clock, Sleep } from '../../clock/clock.js';
import { MINUTE_MS } from '../../clock/time-constants.js';
import type { PaceLimits } from './chat-pace-config.js';

class SendWindow {
  /** Times of the last messages, oldest first, at most `perMinute` of them. */
  private readonly sent: number[] = [];
  /** The turn taken last: the next one starts after it (one at a time per chat). */
  turn: Promise<void> = Promise.resolve();

  constructor(private readonly limits: PaceLimits) {}

  /** The earliest time at or after `nowMs` a message may go. */
  nextSlotMs(nowMs: number): number {
    const last = this.sent.at(-1);
    const minuteAgo = this.sent.length >= this.limits.perMinute ? this.sent[this.sent.length - this.limits.perMinute] : undefined;
    return Math.max(
      nowMs,
      last === undefined ? nowMs : last + this.limits.minGapMs,
      minuteAgo === undefined ? nowMs : minuteAgo + MINUTE_MS,
    );
  }

  record(atMs: number): void {
    this.sent.push(atMs);
    if (this.sent.length > this.limits.perMinute) this.sent.shift();
  }
}

export class SendWindows {
  private readonly windows = new Map<string, SendWindow>();

  /** `clock` and `sleep` are real time in the daemon (the chat's limits are); a test's simulated pair otherwise. */
  constructor(private readonly deps: { limits: PaceLimits; clock: Clock; sleep: Sleep }) {}

  /**
   * Waits for the chat's next turn and counts the message as sent at its start. Turns are taken
   * one at a time in the order asked, so two writers never both take the same slot.
   */
  take(chatId: string): Promise<void> {
    let window = this.windows.get(chatId);
    if (window === undefined) {
      window = new SendWindow(this.deps.limits);
      this.windows.set(chatId, window);
    }
    const own = window;
    const turn = own.turn.then(async () => {
      const { clock, sleep } = this.deps;
      // A timer may wake a millisecond early: look again until the slot has come.
      for (let waitMs = own.nextSlotMs(clock.now()) - clock.now(); waitMs > 0; waitMs = own.nextSlotMs(clock.now()) - clock.now())
        await sleep(waitMs);
      own.record(clock.now());
    });
    own.turn = turn;
    return turn;
  }
}
