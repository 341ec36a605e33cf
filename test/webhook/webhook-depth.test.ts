import { databaseOf } from '../../src/store/index.js';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../src/webhook/index.js';
import {
  DATA,
  TOPIC,
  UUID,
  eventClaims,
  nestedJson,
  signRawPayload,
  signToken,
  startListener,
  tokenBody,
  type Harness,
} from './webhook-fixtures.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Claims text whose `data.extra` is `levels` arrays deep: the claims nest `levels + 2` deep. */
function deepClaimsText(levels: number, topic = TOPIC): string {
  const head = JSON.stringify({ webhook_uuid: UUID, topic, iat: 1_773_144_000 });
  const data = JSON.stringify(DATA).slice(0, -1);
  return `${head.slice(0, -1)},"data":${data},"extra":${nestedJson(levels)}}}`;
}

function inboxCount(harness: Harness): unknown {
  return databaseOf(harness.store).prepare('SELECT COUNT(*) AS n FROM webhook_inbox').get();
}

describe('webhook listener: nesting depth', () => {
  it(`400s a validly signed event whose data nests ten thousand levels deep (limit ${MAX_JSON_DEPTH})`, async () => {
    h = await startListener();
    const token = await signRawPayload(deepClaimsText(10_000));
    expect(await h.post(tokenBody(token))).toEqual({
      status: 400,
      body: { error: 'malformed', code: 'too_deep', message: 'token claims nest deeper than 32 levels' },
    });
    expect(h.outcomes).toEqual(['malformed']);
    expect(h.outcomeLines()).toEqual([expect.objectContaining({ outcome: 'malformed', code: 'too_deep', msg: 'webhook refused' })]);
    expect(inboxCount(h)).toEqual({ n: 0 });
    expect(h.stored).toEqual([]);
  });

  it('400s a deep event of a topic it does not know, instead of storing it', async () => {
    h = await startListener();
    const token = await signRawPayload(deepClaimsText(10_000, 'loan_funded'));
    const response = await h.post(tokenBody(token), { 'content-type': 'application/json', 'x-svc-topic': 'loan_funded' });
    expect(response).toEqual({
      status: 400,
      body: { error: 'malformed', code: 'too_deep', message: 'token claims nest deeper than 32 levels' },
    });
    expect(inboxCount(h)).toEqual({ n: 0 });
  });

  it('accepts claims exactly 32 levels deep and refuses 33', async () => {
    h = await startListener();
    // Claims (1) > data (2) > extra arrays: 30 arrays reach 32 levels.
    expect(await h.post(tokenBody(await signRawPayload(deepClaimsText(MAX_JSON_DEPTH - 2))))).toEqual({
      status: 200,
      body: { status: 'accepted' },
    });
    const deeper = await signToken(eventClaims({ webhook_uuid: '11111111-2222-4333-8444-555555555555' }));
    const tooDeep = await signRawPayload(deepClaimsText(MAX_JSON_DEPTH - 1).replace(UUID, '11111111-2222-4333-8444-555555555555'));
    expect((await h.post(tokenBody(tooDeep))).body).toMatchObject({ code: 'too_deep' });
    expect((await h.post(tokenBody(deeper))).status).toBe(200);
    expect(inboxCount(h)).toEqual({ n: 2 });
  });

  it('400s raw JSON nested 100k deep (within a larger body limit), never a 5xx', async () => {
    h = await startListener({ bodyLimitBytes: 256 * 1024 });
    const deep = nestedJson(100_000);
    expect(await h.post(deep)).toEqual({
      status: 400,
      body: { error: 'malformed', code: 'too_deep', message: 'body nests deeper than 32 levels' },
    });
    expect(await h.post(`{"token":"x","pad":${deep}}`)).toEqual({
      status: 400,
      body: { error: 'malformed', code: 'too_deep', message: 'body nests deeper than 32 levels' },
    });
    // Unbalanced: not JSON at all.
    expect(await h.post(`{"token":${'['.repeat(100_000)}`)).toEqual({
      status: 400,
      body: { error: 'malformed', code: 'bad_body', message: 'body is not JSON' },
    });
    expect(h.outcomes).toEqual(['malformed', 'malformed', 'malformed']);
    expect(inboxCount(h)).toEqual({ n: 0 });
  });

  it('400s deep raw JSON within the default 64 KiB limit', async () => {
    h = await startListener();
    const deep = '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000);
    expect(await h.post(deep)).toEqual({
      status: 400,
      body: { error: 'malformed', code: 'too_deep', message: 'body nests deeper than 32 levels' },
    });
  });
});

describe('webhook listener: not-before', () => {
  it('400s a validly signed token whose nbf has not come (claims_invalid), and takes it once it has', async () => {
    h = await startListener();
    const nbf = Math.floor(h.clock.now() / 1000) + 3600;
    const token = await signToken(eventClaims({ nbf }));
    expect(await h.post(tokenBody(token))).toEqual({
      status: 400,
      body: { error: 'malformed', code: 'claims_invalid', message: 'token is not valid yet (its nbf has not come)' },
    });
    expect(inboxCount(h)).toEqual({ n: 0 });
    // The marketplace retries hourly: by then the token is valid.
    h.clock.advance(3600_000);
    expect(await h.post(tokenBody(token))).toEqual({ status: 200, body: { status: 'accepted' } });
    expect(h.outcomes).toEqual(['malformed', 'accepted']);
  });
});
