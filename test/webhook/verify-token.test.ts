import { SignJWT, UnsecuredJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/clock.js';
import { verifyWebhookToken, webhookKey } from '../../src/webhook/index.js';
import { T0 } from '../store/fixtures.js';
import { DATA, SECRET, TOPIC, UUID, eventClaims, signToken } from './webhook-fixtures.js';

const clock = new ManualClock(T0);
const verify = (token: string, secret = SECRET) => verifyWebhookToken(token, secret, { clock });

describe('verifyWebhookToken', () => {
  it('returns the signed event of a valid HS256 token', async () => {
    expect(await verify(await signToken(eventClaims()))).toEqual({
      ok: true,
      event: { webhookUuid: UUID, topic: TOPIC, data: DATA, issuedAtMs: T0, known: true },
    });
  });

  it('marks topics it does not know, without checking their data', async () => {
    const result = await verify(await signToken(eventClaims({ topic: 'loan_funded', data: { anything: [1] }, iat: undefined })));
    expect(result).toEqual({ ok: true, event: { webhookUuid: UUID, topic: 'loan_funded', data: { anything: [1] }, issuedAtMs: undefined, known: false } });
  });

  it('refuses a token signed with another secret', async () => {
    expect(await verify(await signToken(eventClaims(), 'another-secret'))).toEqual({
      ok: false,
      outcome: 'forged',
      code: 'bad_signature',
      message: 'token signature does not match the webhook secret',
    });
  });

  it('refuses alg none and HS512', async () => {
    const none = new UnsecuredJWT(eventClaims()).encode();
    const hs512 = await signToken(eventClaims(), SECRET, 'HS512');
    for (const token of [none, hs512]) {
      expect(await verify(token)).toEqual({ ok: false, outcome: 'forged', code: 'alg_not_allowed', message: 'token algorithm is not HS256' });
    }
  });

  it('refuses text that is not a JWS', async () => {
    expect(await verify('not.a.jwt')).toEqual({ ok: false, outcome: 'forged', code: 'not_a_jwt', message: 'token is not a valid JWS' });
  });

  it('checks exp when present, against the injected clock, with 30 s of tolerance', async () => {
    const exp = Math.floor(T0 / 1000) - 31;
    expect(await verify(await signToken(eventClaims({ exp })))).toEqual({ ok: false, outcome: 'forged', code: 'expired', message: 'token has expired' });
    expect((await verify(await signToken(eventClaims({ exp: exp + 2 })))).ok).toBe(true);
  });

  it('refuses a token whose nbf has not come as a claims problem, with 30 s of tolerance', async () => {
    const nbf = Math.floor(T0 / 1000) + 31;
    expect(await verify(await signToken(eventClaims({ nbf })))).toEqual({
      ok: false,
      outcome: 'malformed',
      code: 'claims_invalid',
      message: 'token is not valid yet (its nbf has not come)',
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
    });
  });

  it('refuses genuine tokens whose claims are not an event', async () => {
    expect(await verify(await signToken(eventClaims({ webhook_uuid: 'nope', data: [1] })))).toEqual({
      ok: false,
      outcome: 'malformed',
      code: 'claims_invalid',
      message: 'token claims invalid at webhook_uuid, data',
    });
    const noPayload = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).sign(webhookKey(SECRET));
    expect(await verify(noPayload)).toEqual({
      ok: false,
      outcome: 'malformed',
      code: 'claims_invalid',
      message: 'token claims invalid at webhook_uuid, topic, data',
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
    });
  });
});
