/**
 * Issue 24, item 11: no limit on response size, and gzip accepted: 306 KB inflating to 300 MB took
 * the daemon from 115 MB to 1,690 MB, and failed the poll five times, inflating again each time.
 * Answers are read up to their endpoint's limit, on the wire and once decompressed, and reading
 * stops there; the error is not retried at once.
 */
import { once } from 'node:events';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RESPONSE_LIMITS, ServiceError } from '../../src/service/index.js';
import { startHarness, type Harness, serviceFailure } from './client-harness.js';
import { loanRequestJson } from './fixtures/resources.js';

const LIST = 'GET /api/v3/loan_requests/';
const OFFER = 'POST /api/v3/loan_requests/7/make_offer/';
const MB = 1024 * 1024;
const BOMB_BYTES = 200 * MB;

let harness: Harness;
afterEach(async () => {
  await harness.close();
});

/** `bytes` zeros through gzip, a megabyte at a time: the test never holds the inflated size. */
async function gzipBomb(bytes: number): Promise<Buffer> {
  const zeros = Buffer.alloc(MB);
  const gzip = zlib.createGzip({ level: 9 });
  const chunks: Buffer[] = [];
  gzip.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = once(gzip, 'end');
  for (let written = 0; written < bytes; written += zeros.length) {
    if (!gzip.write(zeros)) await once(gzip, 'drain');
  }
  gzip.end();
  await ended;
  return Buffer.concat(chunks);
}

/** `bytes` of zeros, streamed 64 KB at a time, without a Content-Length. */
function hugeStream(bytes: number): () => Readable {
  const chunk = Buffer.alloc(64 * 1024, '0');
  return () => {
    let sent = 0;
    return new Readable({
      read() {
        if (sent >= bytes) {
          this.push(null);
          return;
        }
        sent += chunk.length;
        this.push(chunk);
      },
    });
  };
}

/**
 * The largest growth of the process's memory (RSS and ArrayBuffers) while `run` runs, sampled
 * every few milliseconds and once at the end, in MB.
 */
async function memoryGrowth(run: () => Promise<unknown>): Promise<{ rss: number; arrayBuffers: number }> {
  const before = process.memoryUsage();
  let rss = 0;
  let arrayBuffers = 0;
  const sample = (): void => {
    const now = process.memoryUsage();
    rss = Math.max(rss, now.rss - before.rss);
    arrayBuffers = Math.max(arrayBuffers, now.arrayBuffers - before.arrayBuffers);
  };
  const timer = setInterval(sample, 2);
  try {
    await run();
  } finally {
    clearInterval(timer);
    sample();
  }
  return { rss: rss / MB, arrayBuffers: arrayBuffers / MB };
}

let bomb: Buffer;
beforeAll(async () => {
  bomb = await gzipBomb(BOMB_BYTES);
}, 60_000);

describe('answers are read up to their limit', () => {
  it('stops inflating a gzip bomb at the limit, once, with memory far below the bomb', async () => {
    expect(bomb.length).toBeLessThan(MB);
    harness = await startHarness();
    harness.server.route(LIST, () => ({ status: 200, rawBody: bomb, headers: { 'Content-Encoding': 'gzip' } }));

    let error: ServiceError | undefined;
    const growth = await memoryGrowth(async () => {
      error = await serviceFailure(harness.client.listLoanRequests());
    });

    expect(error?.code).toBe('RESPONSE_TOO_LARGE');
    expect(error?.message).toBe(
      `GET /api/v3/loan_requests/ 200 answer larger than ${DEFAULT_RESPONSE_LIMITS.lists} bytes once decompressed; reading stopped at the limit (raise service.max_response_bytes.lists if the service really sends answers this large)`,
    );
    expect(error?.transient).toBe(false);
    // Not retried at once: the same bomb would come again.
    expect(harness.server.requests).toHaveLength(1);
    expect(harness.sleeps).toEqual([]);
    // 200 MB inflated; the limit is 8 MB. Generous bounds, so the test is never flaky.
    expect(growth.rss).toBeLessThan(100);
    expect(growth.arrayBuffers).toBeLessThan(100);
  });

  it('stops reading a huge plain body at the limit on the wire', async () => {
    harness = await startHarness();
    harness.server.route(LIST, () => ({ status: 200, stream: hugeStream(BOMB_BYTES) }));

    let error: ServiceError | undefined;
    const growth = await memoryGrowth(async () => {
      error = await serviceFailure(harness.client.listLoanRequests());
    });

    expect(error?.code).toBe('RESPONSE_TOO_LARGE');
    expect(error?.message).toContain(`answer larger than ${DEFAULT_RESPONSE_LIMITS.lists} bytes on the wire; reading stopped at the limit`);
    expect(harness.server.requests).toHaveLength(1);
    expect(growth.rss).toBeLessThan(100);
    expect(growth.arrayBuffers).toBeLessThan(100);
  });

  it('refuses at once a Content-Length above the limit', async () => {
    harness = await startHarness({ maxResponseBytes: { ...DEFAULT_RESPONSE_LIMITS, lists: 64 * 1024 } });
    harness.server.route(LIST, () => ({
      status: 200,
      rawBody: Buffer.alloc(100 * 1024, ' '),
      headers: { 'Content-Length': String(100 * 1024) },
    }));
    const error = await serviceFailure(harness.client.listLoanRequests());
    expect(error.message).toContain('answer larger than 65536 bytes on the wire');
  });

  it('holds each endpoint to its own configured limit', async () => {
    const page = { count: 60, next: null, previous: null, results: Array.from({ length: 60 }, (_, i) => loanRequestJson(i + 1)) };
    const size = JSON.stringify(page).length;
    harness = await startHarness({ maxResponseBytes: { ...DEFAULT_RESPONSE_LIMITS, lists: size - 1 } });
    harness.server.route(LIST, () => ({ status: 200, body: page }));
    expect((await serviceFailure(harness.client.listLoanRequests())).message).toContain(`larger than ${size - 1} bytes`);
    await harness.close();

    harness = await startHarness({ maxResponseBytes: { ...DEFAULT_RESPONSE_LIMITS, lists: size } });
    harness.server.route(LIST, () => ({ status: 200, body: page }));
    expect((await harness.client.listLoanRequests()).items).toHaveLength(60);
  });

  it('an offer answer too large to read is an unknown outcome, not a refusal', async () => {
    harness = await startHarness();
    harness.server.route(OFFER, () => ({ status: 201, rawBody: bomb, headers: { 'Content-Encoding': 'gzip' } }));
    const error = await serviceFailure(harness.client.makeOffer(7, { offeredInterest: 0.3, automateFund: true }));
    expect(error.code).toBe('AMBIGUOUS_OUTCOME');
    expect(error.message).toBe(
      `POST /api/v3/loan_requests/7/make_offer/ 201 the service answered 201 but the answer could not be read (larger than service.max_response_bytes.offers, ${DEFAULT_RESPONSE_LIMITS.offers} bytes, once decompressed; not read); the request may have been applied`,
    );
  });
});

describe('compressed answers', () => {
  const page = { count: 2, next: null, previous: null, results: [loanRequestJson(1), loanRequestJson(2)] };
  const json = Buffer.from(JSON.stringify(page));

  it('are asked for and read in gzip, deflate (wrapped or raw) and brotli', async () => {
    harness = await startHarness();
    const encodings: Array<[string, Buffer]> = [
      ['gzip', zlib.gzipSync(json)],
      ['deflate', zlib.deflateSync(json)],
      ['deflate', zlib.deflateRawSync(json)],
      ['br', zlib.brotliCompressSync(json)],
    ];
    for (const [encoding, body] of encodings) {
      harness.server.route(LIST, () => ({ status: 200, rawBody: body, headers: { 'Content-Encoding': encoding } }));
      expect((await harness.client.listLoanRequests()).items.map((item) => item.id)).toEqual([1, 2]);
    }
    expect(harness.server.requests[0]!.headers['accept-encoding']).toBe('gzip, deflate, br');
  });

  it('are held to the limit in brotli too', async () => {
    harness = await startHarness({ maxResponseBytes: { ...DEFAULT_RESPONSE_LIMITS, lists: 64 * 1024 } });
    const body = zlib.brotliCompressSync(Buffer.alloc(4 * MB));
    harness.server.route(LIST, () => ({ status: 200, rawBody: body, headers: { 'Content-Encoding': 'br' } }));
    expect((await serviceFailure(harness.client.listLoanRequests())).message).toContain('larger than 65536 bytes once decompressed');
  });

  it('in an encoding lendbot did not ask for, or that does not inflate, are malformed', async () => {
    harness = await startHarness();
    harness.server.route(LIST, () => ({ status: 200, rawBody: json, headers: { 'Content-Encoding': 'zstd' } }));
    const unsupported = await serviceFailure(harness.client.listLoanRequests());
    expect([unsupported.code, unsupported.message]).toEqual([
      'MALFORMED_RESPONSE',
      'GET /api/v3/loan_requests/ 200 answer is unreadable: Content-Encoding "zstd" is not one lendbot asked for',
    ]);
    harness.server.route(LIST, () => ({ status: 200, rawBody: json, headers: { 'Content-Encoding': 'gzip' } }));
    expect((await serviceFailure(harness.client.listLoanRequests())).message).toMatch(
      /^GET \/api\/v3\/loan_requests\/ 200 answer is unreadable: the body does not inflate/,
    );
  });
});
