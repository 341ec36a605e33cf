import { UnsecuredJWT } from 'jose';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { databaseOf, openStore } from '../../src/store/index.js';
import { buildWebhookServer } from '../../src/webhook/index.js';
import { silentLogger } from '../../src/log/logger.js';
import { ManualClock } from '../../src/clock/clock.js';
import { T0 } from '../store/fixtures.js';
import { DATA, SECRET, TOPIC, UUID, eventClaims, signToken, startListener, tokenBody, type Harness } from './webhook-fixtures.js';

let h: Harness;
beforeEach(async () => {
  h = await startListener();
});
afterEach(async () => {
  await h.close();
});

/** The failure left exactly one outcome, one log line and nothing in the inbox. */
function expectRefusedWithoutTrace(outcome: string, code: string, token?: string): void {
  expect(h.outcomes).toEqual([outcome]);
  expect(h.outcomeLines()).toEqual([expect.objectContaining({ outcome, code, msg: 'webhook refused', component: 'webhook' })]);
  expect(databaseOf(h.store).prepare('SELECT COUNT(*) AS n FROM webhook_inbox').get()).toEqual({ n: 0 });
  expect(h.stored).toEqual([]);
  expect(h.logText()).not.toContain(SECRET);
  if (token !== undefined) expect(h.logText()).not.toContain(token);
}

describe('webhook listener: accepted deliveries', () => {
  it('stores a valid event before answering 200 and wakes the pipeline once', async () => {
    const token = await signToken(eventClaims());
    expect(await h.post(tokenBody(token))).toEqual({ status: 200, body: { status: 'accepted' } });
    expect(h.store.inbox.get(UUID)).toEqual({
      seq: 1,
      webhookUuid: UUID,
      topic: TOPIC,
      data: DATA,
      receivedAt: '2026-03-10T12:00:00.000Z',
      processedAt: null,
      outcome: null,
    });
    expect(h.stored).toEqual([{ webhookUuid: UUID, topic: TOPIC, data: DATA, issuedAtMs: T0, known: true }]);
    expect(h.outcomes).toEqual(['accepted']);
    expect(h.logText()).not.toContain(token);
  });

  it('answers a repeated uuid with 200 and does not process it again', async () => {
    const token = await signToken(eventClaims());
    await h.post(tokenBody(token));
    h.clock.advance(3_600_000);
    const again = await signToken(eventClaims({ data: { ...DATA, loan_request_amount: 999 } }));
    expect(await h.post(tokenBody(again))).toEqual({ status: 200, body: { status: 'duplicate' } });
    expect(h.stored).toHaveLength(1);
    expect(h.outcomes).toEqual(['accepted', 'duplicate']);
    expect(h.store.inbox.get(UUID)?.data).toEqual(DATA);
    expect(h.store.inbox.depth()).toBe(1);
  });

  it('stores unknown topics as ignored, answers 200, and does not wake the pipeline', async () => {
    const token = await signToken(eventClaims({ topic: 'loan_funded', data: { loan_id: 3 } }));
    const response = await h.post(tokenBody(token), { 'content-type': 'application/json', 'x-svc-topic': 'loan_funded' });
    expect(response).toEqual({ status: 200, body: { status: 'ignored' } });
    expect(h.store.inbox.get(UUID)).toMatchObject({ topic: 'loan_funded', outcome: 'ignored', processedAt: '2026-03-10T12:00:00.000Z' });
    expect(h.store.inbox.depth()).toBe(0);
    expect(h.stored).toEqual([]);
    expect(h.outcomes).toEqual(['unknown_topic']);
  });

  it('reads only the signed claims, never clear-text fields beside the token', async () => {
    const token = await signToken(eventClaims());
    const body = tokenBody(token, { webhook_uuid: '00000000-0000-0000-0000-000000000000', topic: 'x', data: { loan_request_id: 666 } });
    expect((await h.post(body)).status).toBe(200);
    expect(h.store.inbox.unprocessed(10).map((e) => [e.webhookUuid, e.data['loan_request_id']])).toEqual([[UUID, 1001]]);
  });
});

describe('webhook listener: refused deliveries', () => {
  it('401s a token signed with the wrong secret', async () => {
    const token = await signToken(eventClaims(), 'not-the-secret');
    expect(await h.post(tokenBody(token))).toEqual({
      status: 401,
      body: { error: 'forged', code: 'bad_signature', message: 'token signature does not match the webhook secret' },
    });
    expectRefusedWithoutTrace('forged', 'bad_signature', token);
  });

  it('401s alg none', async () => {
    const token = new UnsecuredJWT(eventClaims()).encode();
    expect((await h.post(tokenBody(token))).status).toBe(401);
    expectRefusedWithoutTrace('forged', 'alg_not_allowed', token);
  });

  it('401s HS512', async () => {
    const token = await signToken(eventClaims(), SECRET, 'HS512');
    expect((await h.post(tokenBody(token))).status).toBe(401);
    expectRefusedWithoutTrace('forged', 'alg_not_allowed', token);
  });

  it('401s an expired token', async () => {
    const token = await signToken(eventClaims({ exp: Math.floor(T0 / 1000) - 3600 }));
    expect(await h.post(tokenBody(token))).toEqual({
      status: 401,
      body: { error: 'forged', code: 'expired', message: 'token has expired' },
    });
    expectRefusedWithoutTrace('forged', 'expired', token);
  });

  it('400s a body without a token', async () => {
    expect(await h.post(JSON.stringify({ webhook_uuid: UUID, topic: TOPIC, data: DATA }))).toEqual({
      status: 400,
      body: { error: 'malformed', code: 'bad_body', message: 'body has no token' },
    });
    expectRefusedWithoutTrace('malformed', 'bad_body');
  });

  it('400s a body that is not JSON', async () => {
    expect(await h.post('token=abc')).toEqual({ status: 400, body: { error: 'malformed', code: 'bad_body', message: 'body is not JSON' } });
    expectRefusedWithoutTrace('malformed', 'bad_body');
  });

  it('400s an empty body', async () => {
    expect(await h.post('')).toEqual({ status: 400, body: { error: 'malformed', code: 'bad_body', message: 'body is empty' } });
    expectRefusedWithoutTrace('malformed', 'bad_body');
  });

  it('400s a genuine token whose data breaks spec 6.2', async () => {
    const token = await signToken(eventClaims({ data: { loan_request_id: 1 } }));
    const response = await h.post(tokenBody(token));
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: 'malformed', code: 'data_invalid' });
    expectRefusedWithoutTrace('malformed', 'data_invalid', token);
  });

  it('413s a body over the limit (64 KiB by default)', async () => {
    const token = await signToken(eventClaims());
    const body = tokenBody(token, { padding: 'x'.repeat(64 * 1024) });
    expect(await h.post(body)).toEqual({
      status: 413,
      body: { error: 'oversized', code: 'too_large', message: 'body exceeds 65536 bytes' },
    });
    expectRefusedWithoutTrace('oversized', 'too_large', token);
  });

  it('400s a topic header that differs from the signed topic, or is missing', async () => {
    const token = await signToken(eventClaims());
    const mismatch = await h.post(tokenBody(token), { 'content-type': 'application/json', 'x-svc-topic': 'loan_funded' });
    expect(mismatch).toEqual({
      status: 400,
      body: { error: 'topic_mismatch', code: 'topic_mismatch', message: 'X-Svc-Topic header does not match the signed topic' },
    });
    expectRefusedWithoutTrace('topic_mismatch', 'topic_mismatch', token);
    expect((await h.post(tokenBody(token), { 'content-type': 'application/json' })).status).toBe(400);
  });

  it('503s while not accepting, storing nothing, then accepts again', async () => {
    const token = await signToken(eventClaims());
    h.server.setAccepting(false);
    expect(await h.post(tokenBody(token))).toEqual({
      status: 503,
      body: { error: 'unavailable', code: 'shutting_down', message: 'not accepting webhooks now; retry later' },
    });
    expect(h.store.inbox.get(UUID)).toBeUndefined();
    h.server.setAccepting(true);
    expect((await h.post(tokenBody(token))).status).toBe(200);
    expect(h.outcomes).toEqual(['unavailable', 'accepted']);
  });

  it('503s when the inbox cannot store, so the marketplace retries', async () => {
    h.store.close();
    const token = await signToken(eventClaims());
    const response = await fetch(h.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-svc-topic': TOPIC },
      body: tokenBody(token),
    });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('60');
    expect(await response.json()).toEqual({
      error: 'unavailable',
      code: 'store_failed',
      message: 'event could not be stored; retry later',
    });
    expect(h.stored).toEqual([]);
    expect(h.outcomes).toEqual(['unavailable']);
  });

  it('404s other paths without touching the inbox', async () => {
    const response = await fetch(h.url.replace('/webhooks', '/other'), { method: 'POST', body: '{}' });
    expect(response.status).toBe(404);
    expect(h.outcomes).toEqual([]);
  });
});

describe('buildWebhookServer', () => {
  it('refuses an empty secret with a hint', () => {
    const store = openStore(':memory:');
    expect(() => buildWebhookServer({ secret: '', inbox: store.inbox, clock: new ManualClock(T0), log: silentLogger })).toThrow(
      'the webhook secret is empty: set LENDBOT_WEBHOOK_SECRET',
    );
    store.close();
  });

  it('serves a configured path and body limit, beside routes the daemon adds', async () => {
    const store = openStore(':memory:');
    const server = buildWebhookServer({
      secret: SECRET,
      path: '/hooks/svc',
      bodyLimitBytes: 100,
      inbox: store.inbox,
      clock: new ManualClock(T0),
      log: silentLogger,
    });
    server.get('/healthz', () => ({ ok: true }));
    const address = await server.listen({ port: 0, host: '127.0.0.1' });
    try {
      expect(await (await fetch(`${address}/healthz`)).json()).toEqual({ ok: true });
      const token = await signToken(eventClaims());
      const response = await fetch(`${address}/hooks/svc`, { method: 'POST', headers: { 'x-svc-topic': TOPIC }, body: tokenBody(token) });
      expect(response.status).toBe(413);
    } finally {
      await server.close();
      store.close();
    }
  });
});
