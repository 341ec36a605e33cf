/**
 * Group commit for the webhook inbox: the events verified in one turn of the event loop are
 * written in one transaction, one commit for all, once that turn's I/O has been handled
 * (setImmediate). Each caller's promise settles only after the commit holding its event returned,
 * so a 200 still means "durably in the inbox" at the store's `synchronous` level.
 *
 * Under a burst this turns a commit per event into a commit per handful; alone, an event waits
 * one loop turn (microseconds). When the grouped commit fails, each event is tried on its own, so
 * one event that cannot be stored is answered 503 without failing the others.
 */
import type { InboxEventInput, InboxRepository } from '../store/index.js';

type Stored = 'inserted' | 'duplicate';

interface Waiting {
  event: InboxEventInput;
  resolve: (stored: Stored) => void;
  reject: (error: unknown) => void;
}

export class InboxGroupCommit {
  private waiting: Waiting[] = [];

  constructor(private readonly inbox: Pick<InboxRepository, 'insert' | 'insertMany'>) {}

  /** Resolves once `event` is committed ('duplicate' when its uuid was already there). */
  store(event: InboxEventInput): Promise<Stored> {
    return new Promise((resolve, reject) => {
      if (this.waiting.length === 0) setImmediate(() => this.commit());
      this.waiting.push({ event, resolve, reject });
    });
  }

  private commit(): void {
    const group = this.waiting;
    this.waiting = [];
    let results: Stored[];
    try {
      results = this.inbox.insertMany(group.map((entry) => entry.event));
    } catch (error) {
      if (group.length === 1) {
        group[0]!.reject(error);
        return;
      }
      for (const entry of group) this.commitOne(entry);
      return;
    }
    group.forEach((entry, index) => entry.resolve(results[index]!));
  }

  private commitOne(entry: Waiting): void {
    try {
      entry.resolve(this.inbox.insert(entry.event));
    } catch (error) {
      entry.reject(error);
    }
  }
}
