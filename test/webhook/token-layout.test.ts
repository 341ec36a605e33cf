// The listener reads both token layouts by default, pins one when told, and never processes a
// data-layout token twice, whatever uuid is put beside it.
import { generateKeyPair, SignJWT, UnsecuredJWT } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { databaseOf } from '../../src/store/index.js';
import { payloadSha256 } from '../../src/webhook/index.js';
import {
  DATA,
  SECRET,
  TOPIC,
  UUID,
  dataLayoutBody,
  eventClaims,
  signToken,
  startListener,
  tokenBody,
  type Harness,
  type ListenerOptions,
} from './webhook-fixtures.js';

const OTHER_UUID = '0b1a2c3d-4e5f-4a59-8d7c-6f1d2c3b4a59';

let h: Harness;
async function listen(options: ListenerOptions = {}): Promise<Harness> {
  h = await startListener(options);
  return h;
}
afterEach(async () => {
  await h.close();
});

function inboxRows(): Array<{ webhook_uuid: string; topic: string; data_json: string }> {
  return databaseOf(h.store).prepare('SELECT webhook_uuid, topic, data_json FROM webhook_inbox ORDER BY rowid').all() as Array<{
    webhook_uuid: string;
    topic: string;
    data_json: string;
  }>;
}

describe('token layouts, auto (the default)', () => {
  it('accepts the envelope layout and the data layout, storing the same event from each', async () => {
    await listen();
    expect(await h.post(tokenBody(await signToken(eventClaims())))).toEqual({ status: 200, body: { status: 'accepted' } });
    const dataBody = await dataLayoutBody({ uuid: OTHER_UUID, data: { ...DATA, loan_request_id: 1002 } });
    expect(await h.post(dataBody)).toEqual({ status: 200, body: { status: 'accepted' } });
    expect(inboxRows()).toEqual([
      { webhook_uuid: UUID, topic: TOPIC, data_json: JSON.stringify(DATA) },
      // iat is the token's, not part of the data.
      { webhook_uuid: OTHER_UUID, topic: TOPIC, data_json: JSON.stringify({ ...DATA, loan_request_id: 1002 }) },
    ]);
    expect(h.stored.map((event) => event.webhookUuid)).toEqual([UUID, OTHER_UUID]);
    expect(h.outcomes).toEqual(['accepted', 'accepted']);
  });

  it('takes the data layout topic from X-Svc-Topic when the body has none', async () => {
    await listen();
    const token = await signToken({ ...DATA });
    expect(await h.post(tokenBody(token, { webhook_uuid: OTHER_UUID }))).toEqual({ status: 200, body: { status: 'accepted' } });
    expect(h.store.inbox.get(OTHER_UUID)).toMatchObject({ topic: TOPIC, data: DATA });
  });

  it('stores a data-layout event of an unknown topic as ignored', async () => {
    await listen();
    const body = tokenBody(await signToken({ loan_id: 3 }), { webhook_uuid: OTHER_UUID, topic: 'loan_funded' });
    expect(await h.post(body, { 'content-type': 'application/json', 'x-svc-topic': 'loan_funded' })).toEqual({
      status: 200,
      body: { status: 'ignored' },
    });
    expect(h.store.inbox.get(OTHER_UUID)).toMatchObject({ topic: 'loan_funded', outcome: 'ignored' });
  });

  it('400s a data-layout token without a UUID beside it', async () => {
    await listen();
    const body = tokenBody(await signToken({ ...DATA }), { topic: TOPIC });
    const answer = await h.post(body);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: 'malformed', code: 'event_fields_invalid' });
    expect((answer.body as { message: string }).message).toMatch(
      /read as the data layout, which needs webhook_uuid \(a UUID\) beside the token.*invalid at webhook_uuid$/,
    );
    expect(inboxRows()).toEqual([]);
  });
});

describe('pinned layouts', () => {
  it('envelope refuses a data-layout token with a 400 naming the setting', async () => {
    await listen({ tokenLayout: 'envelope' });
    expect(await h.post(await dataLayoutBody())).toEqual({
      status: 400,
      body: {
        error: 'malformed',
        code: 'layout_mismatch',
        message:
          'token claims are not the envelope layout (webhook_uuid, topic and data are not all claims) and webhook.token_layout is envelope; auto reads both',
      },
    });
    expect(await h.post(tokenBody(await signToken(eventClaims())))).toEqual({ status: 200, body: { status: 'accepted' } });
    expect(inboxRows().map((row) => row.webhook_uuid)).toEqual([UUID]);
  });

  it('data refuses an envelope token with a 400 naming the setting', async () => {
    await listen({ tokenLayout: 'data' });
    expect(await h.post(tokenBody(await signToken(eventClaims())))).toEqual({
      status: 400,
      body: {
        error: 'malformed',
        code: 'layout_mismatch',
        message:
          'token claims are the envelope layout (webhook_uuid, topic and data are claims) and webhook.token_layout is data; auto reads both',
      },
    });
    expect(await h.post(await dataLayoutBody())).toEqual({ status: 200, body: { status: 'accepted' } });
    expect(inboxRows().map((row) => row.webhook_uuid)).toEqual([UUID]);
  });
});

describe('the data layout is verified like the envelope', () => {
  it('401s alg none, RS256 and a wrong secret', async () => {
    await listen();
    const beside = { webhook_uuid: UUID, topic: TOPIC };
    const { privateKey } = await generateKeyPair('RS256');
    const bodies = [
      tokenBody(new UnsecuredJWT({ ...DATA }).encode(), beside),
      tokenBody(await new SignJWT({ ...DATA }).setProtectedHeader({ alg: 'RS256' }).sign(privateKey), beside),
      await dataLayoutBody({ secret: 'not-the-secret' }),
    ];
    const answers = [];
    for (const body of bodies) answers.push(await h.post(body));
    expect(answers.map((answer) => [answer.status, (answer.body as { code: string }).code])).toEqual([
      [401, 'alg_not_allowed'],
      [401, 'alg_not_allowed'],
      [401, 'bad_signature'],
    ]);
    expect(h.outcomes).toEqual(['forged', 'forged', 'forged']);
    expect(inboxRows()).toEqual([]);
  });

  it('400s a topic beside the token that differs from X-Svc-Topic', async () => {
    await listen();
    const body = await dataLayoutBody({ topic: 'loan_funded' });
    expect(await h.post(body)).toEqual({
      status: 400,
      body: { error: 'topic_mismatch', code: 'topic_mismatch', message: 'X-Svc-Topic header does not match the topic beside the token' },
    });
    expect(inboxRows()).toEqual([]);
  });
});

describe('deduplication on the signed content', () => {
  it('answers a data-layout token replayed under a new uuid 200 duplicate, and processes it once', async () => {
    await listen();
    const token = await signToken({ ...DATA, iat: 1_700_000_000 });
    expect(await h.post(tokenBody(token, { webhook_uuid: UUID, topic: TOPIC }))).toEqual({ status: 200, body: { status: 'accepted' } });
    expect(await h.post(tokenBody(token, { webhook_uuid: OTHER_UUID, topic: TOPIC }))).toEqual({
      status: 200,
      body: { status: 'duplicate' },
    });
    expect(inboxRows().map((row) => row.webhook_uuid)).toEqual([UUID]);
    expect(h.stored).toHaveLength(1);
    expect(h.outcomes).toEqual(['accepted', 'duplicate']);
  });

  it('keeps one of a burst of replays under new uuids committed together', async () => {
    await listen();
    const token = await signToken({ ...DATA });
    const uuids = Array.from({ length: 8 }, (_, index) => `0b1a2c3d-4e5f-4a59-8d7c-00000000000${index}`);
    const answers = await Promise.all(uuids.map((uuid) => h.post(tokenBody(token, { webhook_uuid: uuid, topic: TOPIC }))));
    expect(answers.map((answer) => answer.status)).toEqual(uuids.map(() => 200));
    expect(answers.filter((answer) => (answer.body as { status: string }).status === 'accepted')).toHaveLength(1);
    expect(inboxRows()).toHaveLength(1);
    expect(h.stored).toHaveLength(1);
  });

  it('still tells two genuine data-layout events apart by their signed content', async () => {
    await listen();
    expect((await h.post(await dataLayoutBody({ uuid: UUID }))).body).toEqual({ status: 'accepted' });
    expect((await h.post(await dataLayoutBody({ uuid: OTHER_UUID, data: { ...DATA, loan_request_id: 2002 } }))).body).toEqual({
      status: 'accepted',
    });
    expect(inboxRows()).toHaveLength(2);
  });

  it('treats the same envelope token replayed as a duplicate too', async () => {
    await listen();
    const body = tokenBody(await signToken(eventClaims()));
    await h.post(body);
    expect(await h.post(body)).toEqual({ status: 200, body: { status: 'duplicate' } });
    expect(h.logText()).not.toContain(SECRET);
  });
});

describe('webhook.token_layout in the config', () => {
  it('is auto by default and takes only auto, envelope or data', async () => {
    const { daemonConfigSchema } = await import('../../src/daemon/daemon-config.js');
    expect(daemonConfigSchema.parse({}).webhook.token_layout).toBe('auto');
    expect(daemonConfigSchema.parse({ webhook: { token_layout: 'data' } }).webhook.token_layout).toBe('data');
    const wrong = daemonConfigSchema.safeParse({ webhook: { token_layout: 'claims' } });
    expect(wrong.success).toBe(false);
    expect(wrong.error?.issues[0]).toMatchObject({
      path: ['webhook', 'token_layout'],
      code: 'invalid_value',
      values: ['auto', 'envelope', 'data'],
    });
  });
});

describe('what the inbox keeps', () => {
  it('the signed payload hash of data-layout events only (an envelope uuid is signed and dedupes alone)', async () => {
    await listen();
    const dataToken = await signToken({ ...DATA });
    await h.post(tokenBody(dataToken, { webhook_uuid: OTHER_UUID, topic: TOPIC }));
    await h.post(tokenBody(await signToken(eventClaims())));
    const rows = databaseOf(h.store).prepare('SELECT webhook_uuid, hex(payload_sha256) AS hash FROM webhook_inbox ORDER BY rowid').all();
    expect(rows).toEqual([
      { webhook_uuid: OTHER_UUID, hash: payloadSha256(dataToken).toUpperCase() },
      { webhook_uuid: UUID, hash: '' },
    ]);
  });
});
