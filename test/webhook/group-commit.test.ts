import { afterEach, describe, expect, it } from 'vitest';
import type { InboxEventInput, InboxRepository } from '../../src/store/index.js';
import { InboxGroupCommit } from '../../src/webhook/group-commit.js';
import { T0, tempStore } from '../store/fixtures.js';

let cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups) cleanup();
  cleanups = [];
});

const event = (n: number): InboxEventInput => ({
  webhookUuid: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  topic: 'new_loan_request_created',
  data: { loan_request_id: n },
  receivedAtMs: T0 + n,
});

function storeWithCalls(): { inbox: InboxRepository; calls: number[] } {
  const { store, cleanup } = tempStore();
  cleanups.push(cleanup);
  const calls: number[] = [];
  const inbox: InboxRepository = {
    ...store.inbox,
    insertMany(events) {
      calls.push(events.length);
      return store.inbox.insertMany(events);
    },
  };
  return { inbox, calls };
}

describe('InboxGroupCommit', () => {
  it('commits the events of one turn together, and answers each only once committed', async () => {
    const { inbox, calls } = storeWithCalls();
    const group = new InboxGroupCommit(inbox);
    const pending = [group.store(event(1)), group.store(event(2)), group.store(event(1))];
    // Nothing is in the inbox (nor answered) before the turn ends.
    expect(inbox.get(event(1).webhookUuid)).toBeUndefined();
    expect(await Promise.all(pending)).toEqual(['inserted', 'inserted', 'duplicate']);
    expect(calls).toEqual([3]);
    expect(inbox.unprocessed(10).map((stored) => stored.data)).toEqual([{ loan_request_id: 1 }, { loan_request_id: 2 }]);

    // A later turn is a new commit; a redelivery is still a duplicate.
    expect(await group.store(event(2))).toBe('duplicate');
    expect(calls).toEqual([3, 1]);
  });

  it('fails only the event that cannot be stored when a grouped commit fails', async () => {
    const { inbox } = storeWithCalls();
    const group = new InboxGroupCommit(inbox);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const bad = { ...event(3), data: cyclic };
    const results = await Promise.allSettled([group.store(event(1)), group.store(bad), group.store(event(2))]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(inbox.depth()).toBe(2);
    expect(inbox.get(bad.webhookUuid)).toBeUndefined();
  });

  it('rejects every event when the store cannot write at all', async () => {
    const { inbox } = storeWithCalls();
    const broken: InboxRepository = {
      ...inbox,
      insert: () => {
        throw new Error('disk full');
      },
      insertMany: () => {
        throw new Error('disk full');
      },
    };
    const group = new InboxGroupCommit(broken);
    const results = await Promise.allSettled([group.store(event(1)), group.store(event(2))]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
  });
});
