/**
 * Notifications to a chat, paced (issue 36, item 5: about 77 "Offer placed" messages once came
 * in one burst, over Telegram's per-chat limit). A message waits for the chat's turn
 * (send-windows.ts); offers of one kind waiting together go as one message (offer-group.ts); the
 * queue holds at most `queueLimit` messages, and a message beyond it is counted by event, not
 * kept: the next message sent says how many were not sent. Memory stays bounded however fast
 * events come.
 *
 * `notify` hands an event over and answers at once: 'queued', or 'failed' when the queue was
 * full; callers telling many things in one go (notification-watcher.ts) so queue them all before
 * the first is sent, and the offers among them are grouped. `notifyDelivered` answers once the
 * message carrying the event was delivered or not, for the digest, which moves past a period only
 * once it was told.
 */
import type { Logger } from '../../log/logger.js';
import type { SendResult } from '../notifier.js';
import type { NotificationEvent } from '../../domain/index.js';
import { GROUPED_EVENTS, OfferGroup } from './offer-group.js';
import type { SendWindows } from './send-windows.js';

/** The notifier the outbox sends through (notifier.ts): it formats, POSTs and retries one message. */
export interface MessageSender {
  enabled(event: NotificationEvent): boolean;
  notify(event: NotificationEvent, data: Record<string, unknown>): Promise<SendResult>;
  /** Answers once delivered, where `notify` only queues (the outbox); absent: `notify` answers once delivered. */
  notifyDelivered?(event: NotificationEvent, data: Record<string, unknown>): Promise<SendResult>;
}

interface Waiting {
  event: NotificationEvent;
  /** Offers told together; undefined for any other event. */
  group: OfferGroup | undefined;
  data: Record<string, unknown>;
  resolvers: Array<(result: SendResult) => void>;
}

export interface ChatOutboxDeps {
  sender: MessageSender;
  /** The chat the messages go to (its window in `windows`). */
  chatId: string;
  windows: SendWindows;
  queueLimit: number;
  log: Logger;
}

export class ChatOutbox {
  private readonly queue: Waiting[] = [];
  private readonly notSent = new Map<NotificationEvent, number>();
  private draining = false;

  constructor(private readonly deps: ChatOutboxDeps) {}

  enabled(event: NotificationEvent): boolean {
    return this.deps.sender.enabled(event);
  }

  /** Messages waiting now (at most the queue limit). */
  get waiting(): number {
    return this.queue.length;
  }

  /** Queues the event for the chat: 'queued' at once, 'failed' when the queue is full (counted, told later). */
  notify(event: NotificationEvent, data: Record<string, unknown>): Promise<SendResult> {
    if (!this.deps.sender.enabled(event)) return Promise.resolve('disabled');
    return Promise.resolve(this.enqueue(event, data, undefined));
  }

  /** Queues the event and answers once the message carrying it was delivered ('sent') or not ('failed'). */
  notifyDelivered(event: NotificationEvent, data: Record<string, unknown>): Promise<SendResult> {
    if (!this.deps.sender.enabled(event)) return Promise.resolve('disabled');
    return new Promise((resolve) => {
      if (this.enqueue(event, data, resolve) === 'failed') resolve('failed');
    });
  }

  private enqueue(
    event: NotificationEvent,
    data: Record<string, unknown>,
    resolve: ((result: SendResult) => void) | undefined,
  ): SendResult {
    const joined = GROUPED_EVENTS.has(event) ? this.queue.find((item) => item.event === event && item.group !== undefined) : undefined;
    if (joined?.group !== undefined) {
      joined.group.add(data);
      if (resolve !== undefined) joined.resolvers.push(resolve);
      return 'queued';
    }
    if (this.queue.length >= this.deps.queueLimit) {
      this.notSent.set(event, (this.notSent.get(event) ?? 0) + 1);
      return 'failed';
    }
    const group = GROUPED_EVENTS.has(event) ? new OfferGroup() : undefined;
    group?.add(data);
    this.queue.push({ event, group, data, resolvers: resolve === undefined ? [] : [resolve] });
    // Started on the next turn of the event loop: what a caller tells in one go is all queued first.
    if (!this.draining) {
      this.draining = true;
      setImmediate(() => void this.drain());
    }
    return 'queued';
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        await this.deps.windows.take(this.deps.chatId);
        // Taken off only now: offers that came while it waited for its turn have joined it.
        const next = this.queue.shift();
        if (next === undefined) break;
        const data = { ...(next.group?.data() ?? next.data), ...this.notSentNote() };
        let result: SendResult;
        try {
          result = await this.deps.sender.notify(next.event, data);
        } catch (error) {
          // The sender never throws; should it, the waiting callers still get an answer.
          this.deps.log.warn({ err: error, event: next.event }, 'notification not delivered');
          result = 'failed';
        }
        for (const resolve of next.resolvers) resolve(result);
      }
    } finally {
      this.draining = false;
    }
  }

  /** The count of messages left out of a full queue, told once with the next message. */
  private notSentNote(): Record<string, unknown> {
    if (this.notSent.size === 0) return {};
    const counts = [...this.notSent.entries()];
    this.notSent.clear();
    const total = counts.reduce((sum, [, n]) => sum + n, 0);
    this.deps.log.warn({ notSent: Object.fromEntries(counts) }, 'notifications left out: too many waited for the chat');
    return {
      not_sent: `${total} earlier notification${total === 1 ? '' : 's'} (too many at once): ${counts.map(([event, n]) => `${n} ${event.replace(/_/g, ' ')}`).join(', ')}`,
    };
  }
}
