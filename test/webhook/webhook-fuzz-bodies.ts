/**
 * Webhook deliveries for fuzzing the listener, from a seeded random: genuine events in both token
 * layouts, replays (of a uuid, and of a data-layout token under a new uuid),
 * forged algorithms, wrong keys, truncated tokens and JSON, deep JSON, huge numbers, wrong types
 * for every claim and data field, wrong content types. Each body says exactly what the listener
 * must answer, and which genuine event it stores for the first time.
 *
 * Shared by test/webhook/webhook-fuzz.test.ts (a few thousand bodies) and bench/webhook-fuzz.ts
 * (as many as asked for).
 */
import http from 'node:http';
import { CompactSign, SignJWT, UnsecuredJWT } from 'jose';
import { Random } from '../../src/sandbox/random.js';
import { MAX_JSON_DEPTH, webhookKey } from '../../src/webhook/index.js';

export interface FuzzBody {
  /** What kind of delivery this is, for tallies and failure messages. */
  kind: string;
  body: Uint8Array;
  headers: Record<string, string>;
  /** The status the listener must answer. */
  status: 200 | 400 | 401 | 413;
  /** For a 200, the answer's `status` field. */
  answer?: 'accepted' | 'duplicate' | 'ignored';
  /** Set when this delivery is the first of a genuine event: its uuid must end up in the inbox. */
  storesUuid?: string;
  /** Set when the stored event is of a topic lendbot acts on (its worker is woken once for it). */
  wakes?: boolean;
}

export interface FuzzOptions {
  seed: number;
  secret: string;
  /** The listener's clock, in Unix seconds: tokens are issued then. */
  nowSeconds: number;
  bodyLimitBytes: number;
}

const TOPIC = 'new_loan_request_created';
const OTHER_TOPICS = ['loan_funded', 'offer_accepted', 'payment_received'];
const encoder = new TextEncoder();

/** Content types the listener parses (any, as documented) and those fastify cannot read at all. */
const READABLE_CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=latin1',
  'application/xml',
];
const UNREADABLE_CONTENT_TYPES = ['', 'garbage', 'application/json, text/html'];

type Weighted = readonly [weight: number, make: (g: Generator) => Promise<FuzzBody>];

class Generator {
  readonly random: Random;
  /** Genuine events already sent once, to replay. */
  readonly sent: Array<{ uuid: string; topic: string }> = [];
  /** Genuine data-layout tokens already sent once, to replay under a new uuid. */
  readonly sentDataTokens: string[] = [];
  private readonly used = new Set<string>();

  constructor(readonly options: FuzzOptions) {
    this.random = new Random(options.seed);
  }

  pick<T>(items: readonly T[]): T {
    const item = items[this.random.int(0, items.length - 1)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  }

  uuid(): string {
    for (;;) {
      const hex = Array.from({ length: 32 }, () => this.random.int(0, 15).toString(16)).join('');
      const uuid = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20)}`;
      if (!this.used.has(uuid)) {
        this.used.add(uuid);
        return uuid;
      }
    }
  }

  data(): Record<string, unknown> {
    return {
      loan_request_id: this.random.int(1, 10_000_000),
      loan_request_amount: this.random.int(50, 50_000) / (this.random.chance(0.5) ? 1 : 100),
      loan_request_type: this.pick(['cash', 'crypto', 'barter']),
      has_banking_data: this.random.chance(0.5),
      automated_loan_request: this.random.chance(0.5),
    };
  }

  claims(overrides: Record<string, unknown> = {}): Record<string, unknown> {
    return {
      webhook_uuid: this.uuid(),
      topic: TOPIC,
      data: this.data(),
      iat: this.options.nowSeconds - this.random.int(0, 3600),
      ...overrides,
    };
  }

  sign(claims: Record<string, unknown>, secret = this.options.secret, alg = 'HS256'): Promise<string> {
    return new SignJWT(claims).setProtectedHeader({ alg, typ: 'JWT' }).sign(webhookKey(secret));
  }

  signRaw(payload: string): Promise<string> {
    return new CompactSign(encoder.encode(payload)).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(webhookKey(this.options.secret));
  }

  /** A JWS whose header names `alg` but is signed with HS256 and the secret (algorithm confusion). */
  async withHeaderAlg(claims: Record<string, unknown>, alg: string): Promise<string> {
    const genuine = await this.sign(claims);
    const [, payload, signature] = genuine.split('.');
    const header = Buffer.from(JSON.stringify({ alg, typ: 'JWT' })).toString('base64url');
    return `${header}.${payload ?? ''}.${signature ?? ''}`;
  }

  body(token: unknown, extra: Record<string, unknown> = {}): Uint8Array {
    return encoder.encode(JSON.stringify({ token, ...extra }));
  }

  headers(topic = TOPIC): Record<string, string> {
    return { 'content-type': 'application/json', 'x-svc-topic': topic };
  }

  refused(kind: string, status: 400 | 401 | 413, body: Uint8Array, headers = this.headers()): FuzzBody {
    return { kind, body, headers, status };
  }

  /** A genuine, first-seen event in the data layout (claims are the data); remembered for replays. */
  async genuineDataLayout(): Promise<FuzzBody> {
    const token = await this.sign({ ...this.data(), iat: this.options.nowSeconds - this.random.int(0, 3600) });
    const uuid = this.uuid();
    this.sentDataTokens.push(token);
    const beside = this.random.chance(0.8) ? { webhook_uuid: uuid, topic: TOPIC } : { webhook_uuid: uuid };
    return {
      kind: 'genuine, data layout',
      body: this.body(token, beside),
      headers: this.headers(),
      status: 200,
      answer: 'accepted',
      storesUuid: uuid,
      wakes: true,
    };
  }

  /** A genuine, first-seen event; remembered for replays. */
  async genuine(kind: string, topic: string, headers = this.headers(topic)): Promise<FuzzBody> {
    const claims = this.claims({ topic, ...(topic === TOPIC ? {} : { data: { thing_id: this.random.int(1, 999) } }) });
    const uuid = claims.webhook_uuid as string;
    this.sent.push({ uuid, topic });
    const known = topic === TOPIC;
    return {
      kind,
      body: this.body(await this.sign(claims)),
      headers,
      status: 200,
      answer: known ? 'accepted' : 'ignored',
      storesUuid: uuid,
      wakes: known,
    };
  }
}

const WRONG_VALUES: readonly unknown[] = ['500', '', 'true', 0, -1, 1.5, true, false, null, [], [1], {}, { a: 1 }];

/** A value of the wrong type (or range) for a field of new_loan_request_created data. */
function wrongFor(g: Generator, field: string): unknown {
  const candidates = WRONG_VALUES.filter((value) => {
    if (field === 'loan_request_id') return !(typeof value === 'number' && Number.isSafeInteger(value) && value > 0);
    if (field === 'loan_request_amount') return !(typeof value === 'number' && value >= 0);
    if (field === 'loan_request_type') return typeof value !== 'string';
    return typeof value !== 'boolean';
  });
  return g.pick(candidates);
}

const KINDS: readonly Weighted[] = [
  [14, (g) => g.genuine('genuine', TOPIC)],
  [3, (g) => g.genuine('genuine other topic', g.pick(OTHER_TOPICS))],
  [
    4,
    async (g) => {
      const contentType = g.pick(READABLE_CONTENT_TYPES);
      const headers: Record<string, string> = { 'x-svc-topic': TOPIC, ...(g.random.chance(0.3) ? {} : { 'content-type': contentType }) };
      return g.genuine('genuine, odd content type', TOPIC, headers);
    },
  ],
  [
    2,
    async (g) => {
      const body = g.body(await g.sign(g.claims()));
      return g.refused('unreadable content type', 400, body, { 'x-svc-topic': TOPIC, 'content-type': g.pick(UNREADABLE_CONTENT_TYPES) });
    },
  ],
  [
    8,
    async (g) => {
      const earlier = g.sent.length === 0 ? undefined : g.pick(g.sent);
      if (earlier === undefined) return g.genuine('genuine', TOPIC);
      // A replay: the same uuid, signed again, perhaps with other data. Never processed twice.
      const claims = g.claims({
        webhook_uuid: earlier.uuid,
        topic: earlier.topic,
        ...(earlier.topic === TOPIC ? {} : { data: { thing_id: 1 } }),
      });
      return { kind: 'replay', body: g.body(await g.sign(claims)), headers: g.headers(earlier.topic), status: 200, answer: 'duplicate' };
    },
  ],
  [5, (g) => g.genuineDataLayout()],
  [
    3,
    async (g) => {
      const earlier = g.sentDataTokens.length === 0 ? undefined : g.pick(g.sentDataTokens);
      if (earlier === undefined) return g.genuineDataLayout();
      // A captured data-layout token replayed under a uuid never seen: a duplicate of its signed content.
      return {
        kind: 'data layout replay, new uuid',
        body: g.body(earlier, { webhook_uuid: g.uuid(), topic: TOPIC }),
        headers: g.headers(),
        status: 200,
        answer: 'duplicate',
      };
    },
  ],
  [
    2,
    async (g) =>
      g.refused(
        'data layout, no uuid beside',
        400,
        g.body(await g.sign(g.data()), g.random.chance(0.5) ? { topic: TOPIC } : { webhook_uuid: 'nope', topic: TOPIC }),
      ),
  ],
  [4, async (g) => g.refused('alg none', 401, g.body(new UnsecuredJWT(g.claims()).encode()))],
  [4, async (g) => g.refused('other HMAC alg', 401, g.body(await g.sign(g.claims(), g.options.secret, g.pick(['HS384', 'HS512']))))],
  [
    4,
    async (g) =>
      g.refused(
        'forged alg header',
        401,
        g.body(await g.withHeaderAlg(g.claims(), g.pick(['RS256', 'ES256', 'PS256', 'EdDSA', 'none', 'None', 'hs256', '']))),
      ),
  ],
  [
    5,
    async (g) =>
      g.refused(
        'wrong key',
        401,
        g.body(await g.sign(g.claims(), g.pick(['x', `${g.options.secret}x`, g.options.secret.slice(1), g.options.secret.toUpperCase()]))),
      ),
  ],
  [
    5,
    async (g) => {
      const token = await g.sign(g.claims());
      return g.refused('truncated token', 401, g.body(token.slice(0, g.random.int(1, token.length - 1))));
    },
  ],
  [
    4,
    async (g) => {
      const token = await g.sign(g.claims());
      const at = g.random.int(0, token.length - 1);
      // 'g' and 'Q' differ in the high bits of a base64url digit: the last digit of a segment has
      // unused low bits, so swapping 'A' and 'B' there could leave the decoded bytes unchanged.
      const swapped = token[at] === 'g' ? 'Q' : 'g';
      // A changed character anywhere: header, payload or signature no longer match.
      const tampered = token.slice(0, at) + (token[at] === '.' ? '.' : swapped) + token.slice(at + 1);
      if (tampered === token) return g.refused('truncated token', 401, g.body(token.slice(0, -1)));
      return g.refused('tampered token', 401, g.body(tampered));
    },
  ],
  [
    5,
    async (g) => {
      const text = JSON.stringify({ token: await g.sign(g.claims()) });
      return g.refused('truncated JSON', 400, encoder.encode(text.slice(0, g.random.int(0, text.length - 1))));
    },
  ],
  [
    3,
    async (g) => {
      const depth = g.random.int(MAX_JSON_DEPTH + 1, 20_000);
      const open = g.pick(['[', '{"a":']);
      const close = open === '[' ? ']' : '}';
      const inner = `${open.repeat(depth)}1${close.repeat(depth)}`;
      const text = g.random.chance(0.5) ? inner : `{"token":"x.y.z","pad":${inner}}`;
      if (text.length > g.options.bodyLimitBytes) return g.refused('deep JSON body, oversized', 413, encoder.encode(text));
      return g.refused('deep JSON body', 400, encoder.encode(text));
    },
  ],
  [
    4,
    async (g) => {
      // A genuine signature over data nested thousands deep: refused, never stored.
      const depth = g.random.int(MAX_JSON_DEPTH, 15_000);
      const topic = g.random.chance(0.7) ? TOPIC : g.pick(OTHER_TOPICS);
      const claims = JSON.stringify(g.claims({ topic, data: { ...g.data(), nested: 'DEEP' } }));
      const payload = claims.replace('"DEEP"', `${'['.repeat(depth)}1${']'.repeat(depth)}`);
      return g.refused('deep signed data', 400, g.body(await g.signRaw(payload)), g.headers(topic));
    },
  ],
  [
    4,
    async (g) => {
      const claims = JSON.stringify(g.claims());
      const field = g.pick(['loan_request_id', 'loan_request_amount', 'iat']);
      const huge = g.pick(['1e400', '-1e400', '9007199254740993', '1e308', '123456789012345678901234567890']);
      const payload = claims.replace(new RegExp(`"${field}":[0-9.]+`), `"${field}":${huge}`);
      // Refused: an id that is not a safe integer, and anything infinite (1e400 parses as Infinity).
      if (field === 'loan_request_id' || huge.endsWith('e400')) return g.refused('huge number', 400, g.body(await g.signRaw(payload)));
      // A huge but finite amount or iat is still a genuine event: the pipeline reads the request itself.
      const uuid = (JSON.parse(claims) as { webhook_uuid: string }).webhook_uuid;
      g.sent.push({ uuid, topic: TOPIC });
      return {
        kind: 'huge number, finite',
        body: g.body(await g.signRaw(payload)),
        headers: g.headers(),
        status: 200,
        answer: 'accepted',
        storesUuid: uuid,
        wakes: true,
      };
    },
  ],
  [
    6,
    async (g) => {
      const data = g.data();
      const field = g.pick(Object.keys(data));
      if (g.random.chance(0.2)) delete data[field];
      else data[field] = wrongFor(g, field);
      return g.refused('wrong data type', 400, g.body(await g.sign(g.claims({ data }))));
    },
  ],
  [
    4,
    async (g) => {
      const field = g.pick(['webhook_uuid', 'topic', 'data', 'iat', 'nbf', 'exp']);
      const wrong: Record<string, readonly unknown[]> = {
        webhook_uuid: [7, 'not-a-uuid', '', null, ['x'], 'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz'],
        topic: [7, '', null, ['x'], { t: 1 }],
        data: [[1], 'data', 3, null, true],
        iat: ['now', null, [1], { s: 1 }],
        nbf: ['later', null, [1]],
        exp: ['soon', false, { e: 1 }],
      };
      const claims = g.claims({ [field]: g.pick(wrong[field] ?? [null]) });
      // A wrong topic type also breaks the header match, but the claims are checked first.
      return g.refused('wrong claim type', 400, g.body(await g.sign(claims)));
    },
  ],
  [
    2,
    async (g) => g.refused('not yet valid', 400, g.body(await g.sign(g.claims({ nbf: g.options.nowSeconds + g.random.int(31, 86_400) })))),
  ],
  [2, async (g) => g.refused('expired', 401, g.body(await g.sign(g.claims({ exp: g.options.nowSeconds - g.random.int(31, 86_400) }))))],
  [
    3,
    async (g) => {
      const token = await g.sign(g.claims());
      const headers: Record<string, string> = g.random.chance(0.5)
        ? { 'content-type': 'application/json' }
        : g.headers(g.pick(OTHER_TOPICS));
      return g.refused('topic header mismatch', 400, g.body(token), headers);
    },
  ],
  [
    4,
    async (g) => {
      const text = g.pick([
        'null',
        '123',
        '"token"',
        '[]',
        'true',
        '{}',
        '{"token":123}',
        '{"token":""}',
        '{"token":null}',
        '{"token":["a.b.c"]}',
        '',
        ' ',
      ]);
      return g.refused('not a token body', 400, encoder.encode(text));
    },
  ],
  [
    3,
    async (g) => {
      const bytes = new Uint8Array(g.random.int(1, 2048));
      for (let i = 0; i < bytes.length; i++) bytes[i] = g.random.int(0, 255);
      // `{` first, so it is never a bare number such as "7", which would still be a 400.
      bytes[0] = 0x7b;
      return g.refused('random bytes', 400, bytes);
    },
  ],
  [
    1,
    async (g) => {
      const token = await g.sign(g.claims());
      return g.refused('oversized', 413, g.body(token, { pad: 'x'.repeat(g.options.bodyLimitBytes) }));
    },
  ],
];

const TOTAL_WEIGHT = KINDS.reduce((sum, [weight]) => sum + weight, 0);

/** `count` deliveries from `options.seed`; the same seed always gives the same bodies. */
export async function* fuzzBodies(count: number, options: FuzzOptions): AsyncGenerator<FuzzBody> {
  const g = new Generator(options);
  for (let i = 0; i < count; i++) {
    let roll = g.random.next() * TOTAL_WEIGHT;
    const kind = KINDS.find(([weight]) => (roll -= weight) < 0) ?? KINDS[0];
    if (kind === undefined) throw new Error('no kinds');
    yield await kind[1](g);
  }
}

/** What the listener answered one delivery: the status and, for JSON, the body's `status` field. */
export interface FuzzAnswer {
  status: number;
  answer: unknown;
}

/**
 * POSTs one delivery over `agent` (keep-alive: node:http is about twice as fast as fetch here,
 * which keeps the test within a few seconds).
 */
export function deliverFuzzBody(url: string, fuzz: FuzzBody, agent: http.Agent): Promise<FuzzAnswer> {
  return new Promise((resolve, reject) => {
    const headers = { ...fuzz.headers, 'content-length': String(fuzz.body.length) };
    const request = http.request(url, { method: 'POST', headers, agent }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let answer: unknown = text;
        try {
          answer = (JSON.parse(text) as { status?: unknown }).status;
        } catch {
          // Not JSON: kept as text for the failure message.
        }
        resolve({ status: response.statusCode ?? 0, answer });
      });
    });
    request.on('error', reject);
    request.end(fuzz.body);
  });
}
