import { createHash } from 'node:crypto';
import { CompactSign, generateKeyPair, SignJWT, UnsecuredJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/clock.js';
import { payloadSha256, verifyWebhookToken, webhookKey } from '../../src/webhook/index.js';
import { T0 } from '../store/fixtures.js';
import { DATA, SECRET, TOPIC, UUID, eventClaims, signToken } from './webhook-fixtures.js';

const clock = new ManualClock(T0);
const verify = (token: string, secret = SECRET) => verifyWebhookToken(token, secret, { clock });

describe('verifyWebhookToken', () => {
  it('returns the signed event of a valid HS256 token, and the hash of its signed payload', async () => {
    const token = await signToken(eventClaims());
    const payload = Buffer.from(token.split('.')[1]!, 'base64url');
    expect(JSON.parse(payload.toString('utf8'))).toEqual(eventClaims());
    expect(await verify(token)).toEqual({
      ok: true,
      event: { webhookUuid: UUID, topic: TOPIC, data: DATA, issuedAtMs: T0, known: true },
      layout: 'envelope',
      payloadSha256: createHash('sha256').update(payload).digest('hex'),
    });
  });

  it('hashes the payload whatever the header: the same claims re-signed with another header hash alike', async () => {
    const plain = await signToken(eventClaims());
    const withKid = await new SignJWT(eventClaims()).setProtectedHeader({ alg: 'HS256', kid: 'k1' }).sign(webhookKey(SECRET));
    expect(withKid.split('.')[0]).not.toBe(plain.split('.')[0]);
    expect(payloadSha256(withKid)).toBe(payloadSha256(plain));
    expect(payloadSha256(await signToken(eventClaims({ iat: 1 })))).not.toBe(payloadSha256(plain));
  });

  it('marks topics it does not know, without checking their data', async () => {
    const result = await verify(await signToken(eventClaims({ topic: 'loan_funded', data: { anything: [1] }, iat: undefined })));
    expect(result).toMatchObject({
      ok: true,
      event: { webhookUuid: UUID, topic: 'loan_funded', data: { anything: [1] }, issuedAtMs: undefined, known: false },
    });
  });

  it('refuses a token signed with another secret', async () => {
    expect(await verify(await signToken(eventClaims(), 'another-secret'))).toEqual({
      ok: false,
      outcome: 'forged',
      code: 'bad_signature',
      message: 'token signature does not match the webhook secret',
      misread: false,
    });
  });

  it('refuses alg none and HS512', async () => {
    const none = new UnsecuredJWT(eventClaims()).encode();
    const hs512 = await signToken(eventClaims(), SECRET, 'HS512');
    for (const token of [none, hs512]) {
      expect(await verify(token)).toEqual({
        ok: false,
        outcome: 'forged',
        code: 'alg_not_allowed',
        message: 'token algorithm is not HS256',
        misread: false,
      });
    }
  });

  it('refuses text that is not a JWS', async () => {
    expect(await verify('not.a.jwt')).toEqual({
      ok: false,
      outcome: 'forged',
      code: 'not_a_jwt',
      message: 'token is not a valid JWS',
      misread: false,
    });
  });

  it('checks exp when present, against the injected clock, with 30 s of tolerance', async () => {
    const exp = Math.floor(T0 / 1000) - 31;
    // Signed, but a time problem, not a misreading of the layout.
    expect(await verify(await signToken(eventClaims({ exp })))).toEqual({
      ok: false,
      outcome: 'forged',
      code: 'expired',
      message: 'token has expired',
      misread: false,
    });
    expect((await verify(await signToken(eventClaims({ exp: exp + 2 })))).ok).toBe(true);
  });

  it('refuses a token whose nbf has not come as a claims problem, with 30 s of tolerance', async () => {
    const nbf = Math.floor(T0 / 1000) + 31;
    expect(await verify(await signToken(eventClaims({ nbf })))).toEqual({
      ok: false,
      outcome: 'malformed',
      code: 'claims_invalid',
      message: 'token is not valid yet (its nbf has not come)',
      misread: false,
    });
    expect((await verify(await signToken(eventClaims({ nbf: nbf - 2 })))).ok).toBe(true);
  });

  it('refuses genuine tokens whose claims nest deeper than 32 levels', async () => {
    let deep: unknown = 1;
    for (let level = 0; level < 31; level++) deep = [deep];
    expect(await verify(await signToken(eventClaims({ data: { ...DATA, extra: deep } })))).toEqual({
      ok: false,
      outcome: 'malformed',
      code: 'too_deep',
      message: 'token claims nest deeper than 32 levels',
      misread: true,
    });
  });

  it('refuses genuine tokens whose claims are not an event', async () => {
    expect(await verify(await signToken(eventClaims({ webhook_uuid: 'nope', data: [1] })))).toEqual({
      ok: false,
      outcome: 'malformed',
      code: 'claims_invalid',
      message: 'token claims invalid at webhook_uuid, data',
      misread: true,
    });
    // Not an envelope, so read as the data layout, which needs a uuid and topic beside the token.
    const noPayload = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).sign(webhookKey(SECRET));
    expect(await verify(noPayload)).toEqual({
      ok: false,
      outcome: 'malformed',
      code: 'event_fields_invalid',
      message:
        'token claims are not an envelope (webhook_uuid, topic, data), so they are read as the data layout, which needs webhook_uuid (a UUID) beside the token in the body, and a topic there or in X-Svc-Topic: invalid at webhook_uuid, topic',
      misread: true,
    });
    const notAnObject = await new CompactSign(new TextEncoder().encode('[1,2]'))
      .setProtectedHeader({ alg: 'HS256' })
      .sign(webhookKey(SECRET));
    expect(await verify(notAnObject)).toEqual({
      ok: false,
      outcome: 'malformed',
      code: 'claims_invalid',
      message: 'token payload is not a JSON object',
      misread: true,
    });
  });

  it('checks new_loan_request_created data against spec 6.2', async () => {
    const { has_banking_data: _dropped, ...partial } = DATA;
    const token = await signToken(eventClaims({ data: { ...partial, loan_request_id: 'x' } }));
    expect(await verify(token)).toEqual({
      ok: false,
      outcome: 'malformed',
      code: 'data_invalid',
      message: 'new_loan_request_created data invalid at loan_request_id, has_banking_data',
      misread: true,
    });
  });

  describe('the data layout (claims are the data; uuid and topic beside the token)', () => {
    const beside = { webhook_uuid: UUID, topic: TOPIC };

    it('reads the claims as the data, without the registered claims, and the uuid and topic from beside the token', async () => {
      const token = await signToken({ ...DATA, iat: Math.floor(T0 / 1000), exp: Math.floor(T0 / 1000) + 60 });
      expect(await verifyWebhookToken(token, SECRET, { clock, beside })).toEqual({
        ok: true,
        event: { webhookUuid: UUID, topic: TOPIC, data: DATA, issuedAtMs: T0, known: true },
        layout: 'data',
        payloadSha256: payloadSha256(token),
      });
    });

    it('checks the data against the topic beside the token', async () => {
      const token = await signToken({ loan_request_id: 'x' });
      expect(await verifyWebhookToken(token, SECRET, { clock, beside })).toMatchObject({ ok: false, code: 'data_invalid', misread: true });
      expect(await verifyWebhookToken(token, SECRET, { clock, beside: { ...beside, topic: 'loan_funded' } })).toMatchObject({
        ok: true,
        event: { topic: 'loan_funded', known: false },
      });
    });

    it('pins a layout: each refuses the other with a text naming the setting', async () => {
      const data = await signToken(DATA);
      const envelope = await signToken(eventClaims());
      expect(await verifyWebhookToken(data, SECRET, { clock, beside, layout: 'envelope' })).toEqual({
        ok: false,
        outcome: 'malformed',
        code: 'layout_mismatch',
        message:
          'token claims are not the envelope layout (webhook_uuid, topic and data are not all claims) and webhook.token_layout is envelope; auto reads both',
        misread: true,
      });
      expect(await verifyWebhookToken(envelope, SECRET, { clock, beside, layout: 'data' })).toEqual({
        ok: false,
        outcome: 'malformed',
        code: 'layout_mismatch',
        message:
          'token claims are the envelope layout (webhook_uuid, topic and data are claims) and webhook.token_layout is data; auto reads both',
        misread: true,
      });
      expect(await verifyWebhookToken(data, SECRET, { clock, beside, layout: 'data' })).toMatchObject({ ok: true, layout: 'data' });
      expect(await verifyWebhookToken(envelope, SECRET, { clock, beside, layout: 'envelope' })).toMatchObject({
        ok: true,
        layout: 'envelope',
      });
    });

    it('needs a UUID beside the token', async () => {
      const token = await signToken(DATA);
      expect(await verifyWebhookToken(token, SECRET, { clock, layout: 'data', beside: { webhook_uuid: 'nope', topic: TOPIC } })).toEqual({
        ok: false,
        outcome: 'malformed',
        code: 'event_fields_invalid',
        message:
          'the data layout (webhook.token_layout: data) needs webhook_uuid (a UUID) beside the token in the body, and a topic there or in X-Svc-Topic: invalid at webhook_uuid',
        misread: true,
      });
    });

    it('refuses alg none, RS256 and a wrong secret before reading any layout', async () => {
      const none = new UnsecuredJWT({ ...DATA }).encode();
      const { privateKey } = await generateKeyPair('RS256');
      const rs256 = await new SignJWT({ ...DATA }).setProtectedHeader({ alg: 'RS256' }).sign(privateKey);
      const wrong = await signToken(DATA, 'another-secret');
      for (const [token, code] of [
        [none, 'alg_not_allowed'],
        [rs256, 'alg_not_allowed'],
        [wrong, 'bad_signature'],
      ] as const) {
        expect(await verifyWebhookToken(token, SECRET, { clock, beside })).toMatchObject({
          ok: false,
          outcome: 'forged',
          code,
          misread: false,
        });
      }
    });
  });
});
