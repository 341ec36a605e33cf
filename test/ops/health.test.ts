import { databaseOf } from '../../src/store/index.js';
import fastify from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/clock.js';
import { checkHealth } from '../../src/ops/health.js';
import { registerHealthRoute } from '../../src/ops/ops-routes.js';
import { tempStore } from '../store/fixtures.js';

const START = Date.parse('2026-03-10T12:00:00.000Z');
let h: ReturnType<typeof tempStore>;
let clock: ManualClock;
let url: string;
let app: ReturnType<typeof fastify>;
/** When the inbox worker last processed an event, as the daemon tells the check. */
let progressAtMs: number | undefined;

beforeEach(async () => {
  h = tempStore();
  clock = new ManualClock(START);
  progressAtMs = undefined;
  app = fastify();
  registerHealthRoute(app, () =>
    checkHealth({
      store: h.store,
      clock,
      startedAtMs: START,
      maxPollAgeMs: 300_000,
      maxInboxStallMs: 300_000,
      inboxProgressAtMs: () => progressAtMs,
    }),
  );
  url = `${await app.listen({ host: '127.0.0.1', port: 0 })}/healthz`;
});
afterEach(async () => {
  await app.close();
  h.cleanup();
});

async function get(): Promise<{ status: number; body: { status: string; checks: Record<string, Record<string, unknown>> } }> {
  const response = await fetch(url);
  return { status: response.status, body: (await response.json()) as { status: string; checks: Record<string, Record<string, unknown>> } };
}

describe('GET /healthz', () => {
  it('answers 200 with every check when the database takes writes and the poll is recent', async () => {
    h.store.state.set('last_poll_at', '2026-03-10T12:00:00.000Z', START);
    clock.advance(60_000);
    const { status, body } = await get();
    expect(status).toBe(200);
    expect(body.status).toBe('ok');
    expect(body.checks.database).toEqual({ ok: true });
    expect(body.checks.poll).toEqual({ ok: true, last_poll_at: '2026-03-10T12:00:00.000Z', age_seconds: 60, max_age_seconds: 300 });
    expect(body.checks.inbox).toEqual({ ok: true, depth: 0, stalled_seconds: 0, max_stall_seconds: 300, last_processed_at: null });
    expect(body.checks.process).toMatchObject({ ok: true });
  });

  it('turns 503 when the database is unwritable', async () => {
    databaseOf(h.store).pragma('query_only = ON');
    const { status, body } = await get();
    expect(status).toBe(503);
    expect(body.status).toBe('failing');
    expect(body.checks.database).toEqual({ ok: false, error: 'attempt to write a readonly database' });
    expect(body.checks.poll).toEqual({ ok: true, last_poll_at: null, age_seconds: null, max_age_seconds: 300 });
  });

  it('turns 503 when the database is closed', async () => {
    h.store.close();
    const { status, body } = await get();
    expect(status).toBe(503);
    expect(body.checks.database).toEqual({ ok: false, error: 'The database connection is not open' });
    expect(body.checks.inbox).toEqual({ ok: false, depth: null, stalled_seconds: null, max_stall_seconds: 300, last_processed_at: null });
  });

  it('turns 503 when no poll has succeeded for too long', async () => {
    clock.advance(300_001);
    const { status, body } = await get();
    expect(status).toBe(503);
    expect(body.checks.poll).toEqual({ ok: false, last_poll_at: null, age_seconds: null, max_age_seconds: 300 });
  });
});

describe('GET /healthz: the inbox check (issue 24, item 12)', () => {
  const MINUTE = 60_000;
  let seq = 0;
  /** Stores `count` events received at `atMs` (now). */
  const arrive = (count: number, atMs = clock.now()): string[] => {
    const uuids = Array.from({ length: count }, () => `event-${(seq += 1)}`);
    h.store.inbox.insertMany(
      uuids.map((webhookUuid) => ({ webhookUuid, topic: 'new_loan_request_created', data: { loan_request_id: seq }, receivedAtMs: atMs })),
    );
    return uuids;
  };
  /** The worker processes `uuids` now. */
  const process = (uuids: string[]): void => {
    for (const uuid of uuids) h.store.inbox.markProcessed(uuid, 'processed', clock.now());
    progressAtMs = clock.now();
  };
  const keepPolling = (): void => h.store.state.set('last_poll_at', new Date(clock.now()).toISOString(), clock.now());

  it('is healthy with 1,500 events waiting while they drain, a minute at a time, for 12 minutes', async () => {
    const backlog = arrive(1500);
    for (let minute = 1; minute <= 12; minute++) {
      clock.advance(MINUTE);
      keepPolling();
      process(backlog.splice(0, 100));
      const { status, body } = await get();
      expect(status, `minute ${minute}`).toBe(200);
      expect(body.checks.inbox).toEqual({
        ok: true,
        depth: 1500 - 100 * minute,
        stalled_seconds: 0,
        max_stall_seconds: 300,
        last_processed_at: new Date(clock.now()).toISOString(),
      });
    }
  });

  it('turns 503 once events have waited longer than the limit with none processed', async () => {
    const waiting = arrive(10);
    process(waiting.splice(0, 5));
    clock.advance(5 * MINUTE);
    keepPolling();
    expect((await get()).status).toBe(200);
    clock.advance(1_000);
    keepPolling();
    const { status, body } = await get();
    expect(status).toBe(503);
    expect(body.status).toBe('failing');
    expect(body.checks.inbox).toMatchObject({ ok: false, depth: 5, stalled_seconds: 301 });
    // One event processed: draining again.
    process(waiting.splice(0, 1));
    expect((await get()).status).toBe(200);
  });

  it('counts from the start for a backlog left by the last run, and from the arrival of an event after a quiet spell', async () => {
    // Events received an hour before this start, none processed yet by this process.
    const left = arrive(3, START - 60 * MINUTE);
    clock.set(START + 4 * MINUTE);
    keepPolling();
    expect((await get()).body.checks.inbox).toMatchObject({ ok: true, depth: 3, stalled_seconds: 240 });
    process(left);
    // Quiet for an hour, then one event: it has waited a second, not an hour.
    clock.advance(60 * MINUTE);
    arrive(1);
    clock.advance(1_000);
    keepPolling();
    expect((await get()).body.checks.inbox).toMatchObject({ ok: true, depth: 1, stalled_seconds: 1 });
  });
});
