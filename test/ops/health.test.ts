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

beforeEach(async () => {
  h = tempStore();
  clock = new ManualClock(START);
  app = fastify();
  registerHealthRoute(app, () => checkHealth({ store: h.store, clock, startedAtMs: START, maxPollAgeMs: 300_000, maxInboxDepth: 2 }));
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
    expect(body.checks.inbox).toEqual({ ok: true, depth: 0, max_depth: 2 });
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
    expect(body.checks.inbox).toEqual({ ok: false, depth: null, max_depth: 2 });
  });

  it('turns 503 when no poll has succeeded for too long, and when the inbox piles up', async () => {
    clock.advance(300_001);
    expect((await get()).body.checks.poll).toEqual({ ok: false, last_poll_at: null, age_seconds: null, max_age_seconds: 300 });
    h.store.state.set('last_poll_at', new Date(clock.now()).toISOString(), clock.now());
    for (const uuid of ['a', 'b', 'c']) h.store.inbox.insert({ webhookUuid: uuid, topic: 't', data: {}, receivedAtMs: clock.now() });
    const { status, body } = await get();
    expect(status).toBe(503);
    expect(body.checks.poll).toMatchObject({ ok: true, age_seconds: 0 });
    expect(body.checks.inbox).toEqual({ ok: false, depth: 3, max_depth: 2 });
  });
});
