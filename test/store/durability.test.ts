import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { databaseOf, openStore } from '../../src/store/index.js';
import { T0, loanRequest, tempDir } from './fixtures.js';
import { storedReasons } from '../../src/store/reason-texts-to-values.js';

let cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups) cleanup();
  cleanups = [];
});

describe('durability', () => {
  it('keeps every table across close and reopen, and still refuses repeats', () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const path = join(dir, 'lendbot.db');
    const request = loanRequest({ id: 31 });

    const first = openStore(path);
    first.requests.markSeen(request, 'webhook', T0);
    first.decisions.record({
      loanRequestId: 31,
      action: 'offer',
      reasons: storedReasons(['ok']),
      dryRun: false,
      decidedAtMs: T0,
      rate: 0.3,
    });
    const intent = first.offers.createIntent({ request, rate: 0.3, automateFund: true, dryRun: false, atMs: T0 });
    first.inbox.insert({
      webhookUuid: 'e3c9a1f0-1111-4222-8333-944455556666',
      topic: 'new_loan_request_created',
      data: { loan_request_id: 31 },
      receivedAtMs: T0,
    });
    first.state.set('last_poll_at', 'then', T0);
    first.close();

    const second = openStore(path);
    cleanups.unshift(() => second.close());
    expect(intent.created).toBe(true);
    expect(second.requests.markSeen(request, 'poll', T0 + 1)).toEqual({ firstTime: false });
    expect(second.decisions.record({ loanRequestId: 31, action: 'skip', reasons: [], dryRun: false, decidedAtMs: T0 })).toBe('duplicate');
    expect(second.offers.createIntent({ request, rate: 0.4, automateFund: true, dryRun: false, atMs: T0 + 1 }).created).toBe(false);
    expect(second.offers.getByRequest(31)?.state).toBe('intent');
    expect(second.inbox.unprocessed(10).map((e) => e.data)).toEqual([{ loan_request_id: 31 }]);
    expect(second.state.get('last_poll_at')).toBe('then');
  });

  it('lets a second connection read while the first writes (WAL)', () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const path = join(dir, 'lendbot.db');
    const writer = openStore(path);
    const reader = openStore(path);
    cleanups.unshift(() => {
      reader.close();
      writer.close();
    });
    databaseOf(writer).prepare('BEGIN IMMEDIATE').run();
    writer.decisions.record({ loanRequestId: 1, action: 'skip', reasons: [], dryRun: false, decidedAtMs: T0 });
    expect(reader.decisions.has(1)).toBe(false);
    databaseOf(writer).prepare('COMMIT').run();
    expect(reader.decisions.has(1)).toBe(true);
  });
});
