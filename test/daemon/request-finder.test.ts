/**
 * Finding a webhook's loan request in the list (there is no single-request endpoint): a list that
 * shrinks while it is scanned ends that scan instead of failing the event.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { findLoanRequest } from '../../src/daemon/request-finder.js';
import { silentLogger } from '../../src/log/logger.js';
import { startHarness, type Harness } from '../service/client-harness.js';
import { loanRequestJson } from '../service/fixtures/resources.js';

let harness: Harness;
afterEach(async () => {
  await harness.close();
});

const LIST = 'GET /api/v3/loan_requests/';

/** A page whose `next` keeps the query's filters, as a service's links do. */
function page(query: URLSearchParams, ids: number[], count: number, next: number | null) {
  const link = new URLSearchParams(query);
  link.set('page', String(next));
  return {
    status: 200,
    body: {
      count,
      next: next === null ? null : `${harness.server.url}/api/v3/loan_requests/?${link.toString()}`,
      previous: null,
      results: ids.map((id) => loanRequestJson(id)),
    },
  };
}

describe('findLoanRequest', () => {
  it('goes on to the whole list when the narrowed one shrinks under it, and finds the request there', async () => {
    harness = await startHarness();
    harness.server.route(LIST, (request) => {
      const narrowed = request.query.has('loan_amount_min');
      const n = Number(request.query.get('page') ?? '1');
      if (narrowed) return n === 1 ? page(request.query, [1, 2], 4, 2) : { status: 404, body: { detail: 'Invalid page.' } };
      return page(request.query, [9, 7], 2, null);
    });

    const found = await findLoanRequest(harness.client, { loanRequestId: 7, amount: 500 }, silentLogger);

    expect(found?.id).toBe(7);
    expect(harness.server.requests.map((request) => request.query.toString())).toEqual([
      'loan_amount_min=500&loan_amount_max=500',
      'loan_amount_min=500&loan_amount_max=500&page=2',
      '',
    ]);
  });

  it('answers "not listed" when every scan ended without it', async () => {
    harness = await startHarness();
    harness.server.route(LIST, (request) =>
      request.query.get('page') === '2' ? { status: 404, body: { detail: 'Invalid page.' } } : page(request.query, [1, 2], 4, 2),
    );
    await expect(findLoanRequest(harness.client, { loanRequestId: 7 }, silentLogger)).resolves.toBeUndefined();
  });
});
