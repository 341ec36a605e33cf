/**
 * scanPages: the list read of the poll and the request finder, against a fixture server. A later
 * page that vanished ends the scan; the first answer's count bounds it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { scanPages, type ScanProgress } from '../../src/service/index.js';
import { startHarness, type Harness } from './client-harness.js';
import { loanRequestJson } from './fixtures/resources.js';

let harness: Harness;
afterEach(async () => {
  await harness.close();
});

const LIST = 'GET /api/v3/loan_requests/';
const pageNumber = (query: URLSearchParams): number => Number(query.get('page') ?? '1');

function page(harness: Harness, ids: number[], count: number, next: number | null) {
  return {
    status: 200,
    body: {
      count,
      next: next === null ? null : `${harness.server.url}/api/v3/loan_requests/?page=${next}`,
      previous: null,
      results: ids.map((id) => loanRequestJson(id)),
    },
  };
}

async function scan(progress: ScanProgress): Promise<number[][]> {
  const pages: number[][] = [];
  for await (const read of scanPages(harness.client.loanRequestPages(), progress)) pages.push(read.items.map((item) => item.id));
  return pages;
}

describe('scanPages', () => {
  it('ends normally at a later page that answers 404 "Invalid page."', async () => {
    harness = await startHarness();
    harness.server.route(LIST, (request) => {
      const n = pageNumber(request.query);
      return n < 3 ? page(harness, [n * 10, n * 10 + 1], 6, n + 1) : { status: 404, body: { detail: 'Invalid page.' } };
    });
    const progress: ScanProgress = { pages: 0 };
    expect(await scan(progress)).toEqual([
      [10, 11],
      [20, 21],
    ]);
    expect(progress).toEqual({ pages: 2, bound: 4, cut: { reason: 'vanished', page: 3 } });
  });

  it('fails on a 404 for the first page', async () => {
    harness = await startHarness();
    harness.server.route(LIST, () => ({ status: 404, body: { detail: 'Not found.' } }));
    await expect(scan({ pages: 0 })).rejects.toMatchObject({ code: 'NOT_FOUND', status: 404 });
  });

  it('fails on any other error of a later page', async () => {
    harness = await startHarness({ retry: { readRetries: 0, paidRetries: 0, baseDelayMs: 1, maxDelayMs: 1, maxRetryAfterMs: 1 } });
    harness.server.route(LIST, (request) =>
      pageNumber(request.query) === 1 ? page(harness, [1], 2, 2) : { status: 500, body: { detail: 'boom' } },
    );
    await expect(scan({ pages: 0 })).rejects.toMatchObject({ code: 'SERVER_ERROR' });
  });

  it('stops after ceil(count / size) of the first answer, plus one page, and asks for no more', async () => {
    harness = await startHarness();
    // The first answer says 25 at 10 a page (3 pages); the list grows and never ends.
    harness.server.route(LIST, (request) => {
      const n = pageNumber(request.query);
      return page(
        harness,
        Array.from({ length: 10 }, (_, i) => n * 100 + i),
        15 + n * 10,
        n + 1,
      );
    });
    const progress: ScanProgress = { pages: 0 };
    expect((await scan(progress)).length).toBe(4);
    expect(progress).toEqual({ pages: 4, bound: 4, cut: { reason: 'bound', page: 4 } });
    expect(harness.server.requests.map((request) => request.query.get('page'))).toEqual([null, '2', '3', '4']);
  });

  it('reads a list that ends within the bound whole, without a cut', async () => {
    harness = await startHarness();
    harness.server.route(LIST, (request) => {
      const n = pageNumber(request.query);
      return page(harness, [n], 3, n < 3 ? n + 1 : null);
    });
    const progress: ScanProgress = { pages: 0 };
    expect(await scan(progress)).toEqual([[1], [2], [3]]);
    expect(progress).toEqual({ pages: 3, bound: 4 });
  });
});
