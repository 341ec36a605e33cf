import { afterEach, describe, expect, it } from 'vitest';
import { balanceFromTransfers } from '../../src/domain/index.js';
import { collectPages, formatItemIssue, InvalidArgumentError, ServiceError } from '../../src/service/index.js';
import { API_KEY, startHarness, type Harness } from './client-harness.js';
import { pageOf } from './fixture-server.js';
import { bankingDataJson, loanRequestJson, offerJson, paymentJson, transferGroupJson } from './fixtures/resources.js';

let harness: Harness;
afterEach(async () => {
  await harness.close();
});

/** Runs `promise`, expecting a ServiceError, and returns it. */
async function failure(promise: Promise<unknown>): Promise<ServiceError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ServiceError) return error;
    throw error;
  }
  throw new Error('expected a ServiceError');
}

const LIST = 'GET /api/v3/loan_requests/';

describe('listing loan requests', () => {
  it('signs the request and sends every filter as query parameters', async () => {
    harness = await startHarness();
    harness.server.route(LIST, (_request, server) => pageOf(server, '/api/v3/loan_requests/', [loanRequestJson(1)], 1, 10));
    const page = await harness.client.listLoanRequests({ svcColor: 1, creditScore: { min: 600 }, completedLoans: '1-3', state: ['CA'] });
    expect(page.items.map((item) => item.id)).toEqual([1]);
    expect(page.count).toBe(1);
    const sent = harness.server.requests[0]!;
    expect(sent.query.toString()).toBe('svc_color=1&credit_score_min=600&completed_loans=1-3&state=CA');
    expect(sent.headers['x-api-key']).toBe(API_KEY);
    expect(sent.headers['x-timestamp']).toBe(String(Date.parse('2026-11-20T14:00:00Z') / 1000));
    expect(sent.headers['user-agent']).toMatch(/^lendbot\/\d+\.\d+\.\d+/);
    expect(sent.headers.authorization).toBeUndefined();
  });

  it('follows `next` across pages to the end', async () => {
    harness = await startHarness();
    const all = Array.from({ length: 23 }, (_, i) => loanRequestJson(i + 1));
    harness.server.route(LIST, (request, server) =>
      pageOf(server, '/api/v3/loan_requests/', all, Number(request.query.get('page') ?? '1'), 10),
    );
    const pages = [];
    for await (const page of harness.client.loanRequestPages()) pages.push(page.items.length);
    expect(pages).toEqual([10, 10, 3]);
    const { items } = await collectPages(harness.client.loanRequestPages());
    expect(items.map((item) => item.id)).toEqual(all.map((item) => item.id));
  });

  it('keeps an item once when the list shifts between pages', async () => {
    harness = await startHarness();
    // A new request arrived between the two reads: item 10 moved from page 1 to page 2.
    const pages: Record<string, unknown[]> = {
      '1': Array.from({ length: 10 }, (_, i) => loanRequestJson(20 - i)),
      '2': Array.from({ length: 10 }, (_, i) => loanRequestJson(11 - i)),
    };
    harness.server.route(LIST, (request, server) => {
      const page = request.query.get('page') ?? '1';
      return {
        status: 200,
        body: { count: 21, next: page === '1' ? `${server.url}/api/v3/loan_requests/?page=2` : null, previous: null, results: pages[page] },
      };
    });
    const { items } = await collectPages(harness.client.loanRequestPages());
    expect(items.map((item) => item.id)).toEqual(Array.from({ length: 19 }, (_, i) => 20 - i));
  });

  it('returns the good items of a page and reports the bad one by path', async () => {
    harness = await startHarness();
    harness.server.route(LIST, () => ({
      status: 200,
      body: {
        count: 3,
        next: null,
        previous: null,
        results: [loanRequestJson(1), loanRequestJson(2, { max_interest_rate: 'high' }), loanRequestJson(3)],
      },
    }));
    const page = await harness.client.listLoanRequests();
    expect(page.items.map((item) => item.id)).toEqual([1, 3]);
    expect(page.issues).toEqual([
      {
        endpoint: 'GET /api/v3/loan_requests/',
        index: 1,
        itemId: 2,
        path: '$.max_interest_rate',
        message: 'Invalid input: expected number, received string',
      },
    ]);
  });

  it('leaves out implausible loan requests with an issue naming the item and field, and keeps the good ones', async () => {
    harness = await startHarness();
    const borrower = loanRequestJson(6).borrower as Record<string, unknown>;
    const results = [
      loanRequestJson(1),
      loanRequestJson(2, { loan_amount: '-300.00' }),
      loanRequestJson(3, { total_amount: '0.00' }),
      loanRequestJson(4, { loan_amount: '300.001' }),
      loanRequestJson(5, { max_interest_rate: 5.0 }),
      loanRequestJson(6, { borrower: { ...borrower, credit_score: '900-99999' } }),
      loanRequestJson(7),
    ];
    harness.server.route(LIST, () => ({ status: 200, body: { count: results.length, next: null, previous: null, results } }));
    const page = await harness.client.listLoanRequests();
    expect(page.items.map((item) => item.id)).toEqual([1, 7]);
    expect(page.issues.map(formatItemIssue)).toEqual([
      'GET /api/v3/loan_requests/: item 1 (id 2) left out: $.loan_amount: amount must be positive (got "-300.00")',
      'GET /api/v3/loan_requests/: item 2 (id 3) left out: $.total_amount: amount must be positive (got "0.00")',
      'GET /api/v3/loan_requests/: item 3 (id 4) left out: $.loan_amount: amount has 3 decimals, at most 2 allowed (got "300.001")',
      'GET /api/v3/loan_requests/: item 4 (id 5) left out: $.max_interest_rate: rate must be between 0.03 and 2 (got 5)',
      'GET /api/v3/loan_requests/: item 5 (id 6) left out: $.borrower.credit_score: credit score outside 300 to 850 (got "900-99999")',
    ]);
  });

  it('stops a `next` that points to itself forever, once the pages exceed what `count` allows', async () => {
    harness = await startHarness();
    // Always the same page, under a link that changes each time so it never looks like a loop.
    harness.server.route(LIST, (_request, server) => ({
      status: 200,
      body: {
        count: 3,
        next: `${server.url}/api/v3/loan_requests/?page=1&t=${server.requests.length}`,
        previous: null,
        results: [loanRequestJson(1)],
      },
    }));
    const error = await failure(collectPages(harness.client.loanRequestPages()));
    expect(error.code).toBe('MALFORMED_RESPONSE');
    // count 3 at 1 a page is 3 pages; slack 2 pages and 10 % (1) allows 6.
    expect(error.message).toBe(
      'GET /api/v3/loan_requests/?page=1&t=6 read 6 pages, more than count 3 at 1 a page allows (6 with slack); next page not followed',
    );
    expect(harness.server.requests).toHaveLength(6);
  });

  it('stops at an empty page that still links to a next one', async () => {
    harness = await startHarness();
    harness.server.route(LIST, (request, server) => {
      const page = Number(request.query.get('page') ?? '1');
      const results = page === 1 ? [loanRequestJson(1), loanRequestJson(2)] : [];
      return { status: 200, body: { count: 40, next: `${server.url}/api/v3/loan_requests/?page=${page + 1}`, previous: null, results } };
    });
    const error = await failure(collectPages(harness.client.loanRequestPages()));
    expect(error.code).toBe('MALFORMED_RESPONSE');
    expect(error.message).toBe('GET /api/v3/loan_requests/?page=3 page 2 is empty but links to a next page; not followed');
    expect(harness.server.requests).toHaveLength(2);
  });

  it('follows a list that grows while it is read, within the slack', async () => {
    harness = await startHarness();
    // count says 2 pages of 10; new requests arriving during the read make it 4.
    harness.server.route(LIST, (request, server) => {
      const page = Number(request.query.get('page') ?? '1');
      const results = Array.from({ length: 10 }, (_, i) => loanRequestJson(page * 100 + i));
      return {
        status: 200,
        body: { count: 20, next: page < 4 ? `${server.url}/api/v3/loan_requests/?page=${page + 1}` : null, previous: null, results },
      };
    });
    const { items } = await collectPages(harness.client.loanRequestPages());
    expect(items).toHaveLength(40);
  });

  it('refuses to follow a `next` link to another host', async () => {
    harness = await startHarness();
    harness.server.route(LIST, () => ({
      status: 200,
      body: { count: 20, next: 'https://evil.example/api/v3/loan_requests/?page=2', previous: null, results: [loanRequestJson(1)] },
    }));
    const error = await failure(collectPages(harness.client.loanRequestPages()));
    expect(error.code).toBe('MALFORMED_RESPONSE');
    expect(error.message).toBe('GET /api/v3/loan_requests/?page=2 page link points to another host (evil.example); not followed');
    expect(harness.server.requests).toHaveLength(1);
  });

  it('stops a `next` that points to the page itself, read twice at most', async () => {
    harness = await startHarness();
    // Page 2 links to itself forever; a count of 1000 would allow far more pages than that.
    harness.server.route(LIST, (request, server) => ({
      status: 200,
      body: {
        count: 1000,
        next: `${server.url}/api/v3/loan_requests/?page=2`,
        previous: null,
        results: [loanRequestJson(Number(request.query.get('page') ?? 1))],
      },
    }));
    const error = await failure(collectPages(harness.client.loanRequestPages()));
    expect(error.code).toBe('MALFORMED_RESPONSE');
    expect(error.message).toBe(
      `GET /api/v3/loan_requests/?page=2 page link loops back to ${harness.server.url}/api/v3/loan_requests/?page=2`,
    );
    expect(harness.server.requests.map((request) => request.query.toString())).toEqual(['', 'page=2']);
  });

  it('reports an envelope that is not JSON as a malformed response', async () => {
    harness = await startHarness();
    harness.server.route(LIST, () => ({ status: 200, rawBody: '<html>maintenance</html>' }));
    const error = await failure(harness.client.listLoanRequests());
    expect(error.code).toBe('MALFORMED_RESPONSE');
    expect(error.message).toBe('GET /api/v3/loan_requests/ 200 answer is not JSON: an HTML page ("maintenance")');
  });

  it('reports an envelope without results by path', async () => {
    harness = await startHarness();
    harness.server.route(LIST, () => ({ status: 200, body: { count: 1, next: null, previous: null } }));
    const error = await failure(harness.client.listLoanRequests());
    expect(error.code).toBe('MALFORMED_RESPONSE');
    expect(error.message).toBe(
      'GET /api/v3/loan_requests/ 200 answer does not match the documented shape at $.results: Invalid input: expected array, received undefined',
    );
  });
});

describe('authentication failures', () => {
  it.each([
    ['a wrong secret', { secretKey: 'wrong' }, 'AUTH_INVALID_HMAC', 'Invalid HMAC'],
    ['an unknown key', { apiKey: 'nobody' }, 'AUTH_INVALID_API_KEY', 'Invalid API Key'],
  ] as const)('maps %s to its code', async (_name, overrides, code, text) => {
    harness = await startHarness(overrides);
    harness.server.route(LIST, (_r, server) => pageOf(server, '/api/v3/loan_requests/', [], 1, 10));
    const error = await failure(harness.client.listLoanRequests());
    expect(error.code).toBe(code);
    expect(error.status).toBe(403);
    expect(error.serviceText).toBe(text);
    expect(error.message).toBe(`GET /api/v3/loan_requests/ 403 authentication refused: ${text}`);
    // Auth failures are not transient: no retry.
    expect(harness.server.requests).toHaveLength(1);
  });

  it('maps a clock outside the 5-minute window to AUTH_TIMESTAMP_OUT_OF_RANGE (no Date header to correct from)', async () => {
    harness = await startHarness({}, 301, { sendDate: false });
    harness.server.route(LIST, (_r, server) => pageOf(server, '/api/v3/loan_requests/', [], 1, 10));
    const error = await failure(harness.client.listLoanRequests());
    expect(error.code).toBe('AUTH_TIMESTAMP_OUT_OF_RANGE');
    expect(error.serviceText).toBe('Timestamp out of range');
  });

  it('is accepted just inside the window', async () => {
    harness = await startHarness({}, 300);
    harness.server.route(LIST, (_r, server) => pageOf(server, '/api/v3/loan_requests/', [], 1, 10));
    await expect(harness.client.listLoanRequests()).resolves.toMatchObject({ count: 0 });
  });

  it('reports missing credentials with their own code', async () => {
    harness = await startHarness();
    const response = await fetch(`${harness.server.url}/api/v3/loan_requests/`);
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ detail: 'Authentication credentials were not provided.' });
    const { reportError } = await import('../../src/cli/error-boundary.js');
    const error = new ServiceError('AUTH_MISSING_CREDENTIALS', 'authentication refused', { method: 'GET', path: '/x', status: 403 });
    expect(reportError(error).text).toBe(
      'lendbot: GET /x 403 authentication refused [AUTH_MISSING_CREDENTIALS] (set LENDBOT_API_KEY and LENDBOT_SECRET_KEY)',
    );
  });

  it('never puts the secret, key or signature into an error', async () => {
    harness = await startHarness({ secretKey: 'wrong-secret-value' });
    harness.server.route(LIST, (_r, server) => pageOf(server, '/api/v3/loan_requests/', [], 1, 10));
    const error = await failure(harness.client.listLoanRequests());
    const text = `${error.message} ${JSON.stringify(error)}`;
    expect(text).not.toContain('wrong-secret-value');
    expect(text).not.toContain(API_KEY);
    expect(text).not.toContain(String(harness.server.requests[0]!.headers['x-hmac']));
  });
});

describe('retries of reads', () => {
  it('honours Retry-After on 429 and signs each attempt afresh', async () => {
    harness = await startHarness();
    let calls = 0;
    harness.server.route(LIST, (_r, server) => {
      calls += 1;
      if (calls <= 2) return { status: 429, body: { detail: 'Request was throttled.' }, headers: { 'Retry-After': '7' } };
      return pageOf(server, '/api/v3/loan_requests/', [loanRequestJson(1)], 1, 10);
    });
    const page = await harness.client.listLoanRequests();
    expect(page.items).toHaveLength(1);
    expect(harness.sleeps).toEqual([7000, 7000]);
    const stamps = harness.server.requests.map((request) => Number(request.headers['x-timestamp']));
    expect(stamps[1]! - stamps[0]!).toBe(7);
    expect(stamps[2]! - stamps[1]!).toBe(7);
  });

  it('backs off exponentially with jitter on 5xx, then gives up with SERVER_ERROR', async () => {
    harness = await startHarness({ retry: { readRetries: 3, paidRetries: 0, baseDelayMs: 100, maxDelayMs: 300, maxRetryAfterMs: 1000 } });
    harness.server.route(LIST, () => ({ status: 502, body: { detail: 'Bad gateway' } }));
    const error = await failure(harness.client.listLoanRequests());
    expect(error.code).toBe('SERVER_ERROR');
    expect(error.message).toBe('GET /api/v3/loan_requests/ 502 server error: Bad gateway');
    // Ceilings 100, 200, 300 (capped); equal jitter with random 0.5 gives 3/4 of each.
    expect(harness.sleeps).toEqual([75, 150, 225]);
    expect(harness.server.requests).toHaveLength(4);
  });

  it('gives up at once when Retry-After is longer than allowed', async () => {
    harness = await startHarness({ retry: { readRetries: 3, paidRetries: 0, baseDelayMs: 100, maxDelayMs: 300, maxRetryAfterMs: 1000 } });
    harness.server.route(LIST, () => ({ status: 429, body: { detail: 'slow down' }, headers: { 'Retry-After': '3600' } }));
    const error = await failure(harness.client.listLoanRequests());
    expect(error.code).toBe('RATE_LIMITED');
    expect(error.retryAfterMs).toBe(3_600_000);
    expect(harness.sleeps).toEqual([]);
  });

  it('retries a dropped connection on a read', async () => {
    harness = await startHarness();
    let calls = 0;
    harness.server.route(LIST, (_r, server) => {
      calls += 1;
      return calls === 1 ? { status: 200, destroy: true } : pageOf(server, '/api/v3/loan_requests/', [loanRequestJson(4)], 1, 10);
    });
    const page = await harness.client.listLoanRequests();
    expect(page.items.map((item) => item.id)).toEqual([4]);
    expect(harness.sleeps).toHaveLength(1);
  });
});

describe('making offers', () => {
  const OFFER = 'POST /api/v3/loan_requests/17/make_offer/';

  it('posts the rate and automate_fund and returns the offer', async () => {
    harness = await startHarness();
    harness.server.route(OFFER, (request) => {
      const body = request.body as { offered_interest: number; automate_fund: boolean };
      return { status: 201, body: offerJson(5, 17, body.offered_interest, body.automate_fund) };
    });
    const offer = await harness.client.makeOffer(17, { offeredInterest: 0.25, automateFund: true });
    expect(offer).toMatchObject({ id: 5, offered_interest: 0.25, automate_fund: true, offer_status: 'pending' });
    expect(harness.server.requests[0]!.body).toEqual({ offered_interest: 0.25, automate_fund: true });
    expect(harness.server.requests[0]!.headers['content-type']).toBe('application/json');
  });

  it('refuses a rate outside 0.03 to 2.0 before sending anything', async () => {
    harness = await startHarness();
    for (const rate of [0.0299, 2.0001, Number.NaN]) {
      await expect(harness.client.makeOffer(17, { offeredInterest: rate })).rejects.toThrow(InvalidArgumentError);
    }
    await expect(harness.client.makeOffer(17, { offeredInterest: 2.5 })).rejects.toThrow(
      'offered interest must be between 0.03 and 2 (got 2.5)',
    );
    expect(harness.server.requests).toHaveLength(0);
  });

  it('reports a rule refusal with the service text and does not retry', async () => {
    harness = await startHarness();
    harness.server.route(OFFER, () => ({ status: 400, body: { detail: 'You have already made an offer for this Loan Request' } }));
    const error = await failure(harness.client.makeOffer(17, { offeredInterest: 0.2 }));
    expect(error.code).toBe('RULE_REFUSED');
    expect(error.serviceText).toBe('You have already made an offer for this Loan Request');
    expect(harness.server.requests).toHaveLength(1);
  });

  it('reads a `message` body as the service text too', async () => {
    harness = await startHarness();
    harness.server.route(OFFER, () => ({ status: 400, body: { message: 'Borrower can not offer.' } }));
    const error = await failure(harness.client.makeOffer(17, { offeredInterest: 0.2 }));
    expect(error.serviceText).toBe('Borrower can not offer.');
  });

  it('calls a 5xx on an offer ambiguous and never resends it', async () => {
    harness = await startHarness();
    harness.server.route(OFFER, () => ({ status: 503, body: { detail: 'upstream' } }));
    const error = await failure(harness.client.makeOffer(17, { offeredInterest: 0.2 }));
    expect(error.code).toBe('AMBIGUOUS_OUTCOME');
    expect(harness.server.requests).toHaveLength(1);
    expect(harness.sleeps).toEqual([]);
  });

  it('calls a timeout after sending ambiguous', async () => {
    harness = await startHarness({ timeoutMs: 150 });
    harness.server.route(OFFER, () => ({ status: 201, body: offerJson(5, 17, 0.2, false), delayMs: 600 }));
    const error = await failure(harness.client.makeOffer(17, { offeredInterest: 0.2 }));
    expect(error.code).toBe('AMBIGUOUS_OUTCOME');
    expect(error.message).toMatch(/^POST \/api\/v3\/loan_requests\/17\/make_offer\/ failed after the request was sent \(ETIMEDOUT\)/);
    expect(harness.server.requests).toHaveLength(1);
  });

  it('calls a refused connection a plain network error: nothing was sent', async () => {
    harness = await startHarness();
    await harness.server.close();
    const error = await failure(harness.client.makeOffer(17, { offeredInterest: 0.2 }));
    expect(error.code).toBe('NETWORK_ERROR');
    expect(error.message).toBe('POST /api/v3/loan_requests/17/make_offer/ network failure (ECONNREFUSED)');
  });
});

describe('funding', () => {
  it('posts an empty object with the bearer token and returns the message', async () => {
    harness = await startHarness({ bearerToken: 'bearer-xyz' });
    harness.server.route('POST /api/v3/accepted_offers/5/fund/', () => ({
      status: 201,
      body: { message: 'Funding has started. You will be notified when it finishes.' },
    }));
    const result = await harness.client.fundAcceptedOffer(5);
    expect(result.message).toBe('Funding has started. You will be notified when it finishes.');
    expect(harness.server.requests[0]!.body).toEqual({});
    expect(harness.server.requests[0]!.headers.authorization).toBe('Bearer bearer-xyz');
  });

  it('reports a precondition failure with its detail', async () => {
    harness = await startHarness();
    harness.server.route('POST /api/v3/accepted_offers/5/fund/', () => ({ status: 400, body: { detail: 'Insufficient balance.' } }));
    const error = await failure(harness.client.fundAcceptedOffer(5));
    expect(error.code).toBe('RULE_REFUSED');
    expect(error.message).toBe('POST /api/v3/accepted_offers/5/fund/ 400 refused: Insufficient balance.');
  });
});

describe('data endpoints', () => {
  it('fetches banking data with the loan request id in the body', async () => {
    harness = await startHarness();
    harness.server.route('POST /api/v3/data_marketplace/data_aggregation/fetch_loan_request_data_aggs/', () => ({
      status: 200,
      body: bankingDataJson(),
    }));
    const data = await harness.client.fetchBankingData(17);
    expect(data.agg_90.negative_balance_count).toBe(2);
    expect(harness.server.requests[0]!.body).toEqual({ loan_request_id: 17 });
  });

  it('maps 404 to NOT_FOUND', async () => {
    harness = await startHarness();
    harness.server.route('POST /api/v3/data_marketplace/data_aggregation/fetch_loan_request_data_aggs/', () => ({
      status: 404,
      body: { message: 'Loan request has no data aggregation' },
    }));
    const error = await failure(harness.client.fetchBankingData(17));
    expect(error.code).toBe('NOT_FOUND');
    expect(error.serviceText).toBe('Loan request has no data aggregation');
  });

  it('does not retry the paid provider endpoint unless configured', async () => {
    harness = await startHarness();
    harness.server.route('POST /api/v3/data_marketplace/data_integration/', () => ({ status: 500, body: { detail: 'boom' } }));
    const error = await failure(harness.client.fetchProviderResult(17, 'provider_b'));
    expect(error.code).toBe('SERVER_ERROR');
    expect(harness.server.requests).toHaveLength(1);
    expect(harness.server.requests[0]!.body).toEqual({ loan_request_id: 17, provider_name: 'provider_b' });
  });

  it('retries the provider endpoint when configured to', async () => {
    harness = await startHarness({ retry: { readRetries: 0, paidRetries: 2, baseDelayMs: 10, maxDelayMs: 10, maxRetryAfterMs: 10 } });
    let calls = 0;
    harness.server.route('POST /api/v3/data_marketplace/data_integration/', () => {
      calls += 1;
      if (calls < 3) return { status: 500, body: { detail: 'boom' } };
      return { status: 200, body: { p2p_score: { date: '2026-11-20', score: 80, score_band: 'excellent', loan_request_id: '17' } } };
    });
    const result = await harness.client.fetchProviderResult(17, 'provider_b');
    expect(result).toMatchObject({ p2p_score: { score: 80 } });
    expect(harness.server.requests).toHaveLength(3);
  });
});

describe('account endpoints', () => {
  it('reads payments as a plain array, leaving out bad items', async () => {
    harness = await startHarness();
    const payment = (id: number, amount: unknown): Record<string, unknown> => paymentJson(id, { payment_amount: amount });
    harness.server.route('GET /api/v3/loans/9/payments/', () => ({
      status: 200,
      body: [payment(1, '95.12'), payment(2, 95.12), payment(3, 'lots')],
    }));
    const { items, issues } = await harness.client.listLoanPayments(9);
    expect(items.map((item) => item.id)).toEqual([1, 2]);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ index: 2, itemId: 3, path: '$.payment_amount' });
  });

  it('keeps every transfer day, negative and sub-cent amounts included, since the balance sums them all', async () => {
    harness = await startHarness();
    const days = [
      transferGroupJson('2026-11-20', [
        ['processed', 'Add Money', '1000.00'],
        ['processed', 'Fund Loans', '-535.50'],
      ]),
      transferGroupJson('2026-11-21', [['processed', 'Fund Loans', '-300.005']]),
    ];
    harness.server.route('GET /api/v3/transfer_history/', () => ({
      status: 200,
      body: { count: 2, next: null, previous: null, results: days },
    }));
    const { items, issues } = await collectPages(harness.client.transferPages());
    expect(issues).toEqual([]);
    expect(items.map((day) => day.date)).toEqual(['2026-11-20', '2026-11-21']);
    // 1000.00 - 535.50 - 300.01 (half a cent rounds away from zero).
    expect(balanceFromTransfers(items).availableCents).toBe(16_449);
  });

  it('reads each loans-by-status list from its own path', async () => {
    harness = await startHarness();
    for (const path of ['current_loan', 'completed_loan', 'collection_loan', 'default_loan']) {
      harness.server.route(`GET /api/v3/loans/${path}/`, () => ({
        status: 200,
        body: { count: 0, next: null, previous: null, results: [] },
      }));
    }
    for (const status of ['current', 'completed', 'collection', 'default'] as const) await harness.client.listLoans(status);
    expect(harness.server.requests.map((request) => request.path)).toEqual([
      '/api/v3/loans/current_loan/',
      '/api/v3/loans/completed_loan/',
      '/api/v3/loans/collection_loan/',
      '/api/v3/loans/default_loan/',
    ]);
  });
});
