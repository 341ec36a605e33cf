/**
 * Issue 24, item 5: got followed redirects, so X-API-KEY, X-Timestamp and X-HMAC went to a second
 * loopback port in 5 of 5 cases (list 302 and 307, make_offer 302 and 307 with the body re-posted,
 * banking data 307), and a redirected list read as an empty market. A second fixture server on
 * another port stands for the other origin; it would accept our credentials, as a thief would.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { collectPages, scanPages, type ScanProgress } from '../../src/service/index.js';
import { API_KEY, SECRET_KEY, startHarness, type Harness, serviceFailure } from './client-harness.js';
import { pageOf, startFixtureServer, type FixtureServer } from './fixture-server.js';
import { bankingDataJson, loanRequestJson, offerJson } from './fixtures/resources.js';

const LIST = '/api/v3/loan_requests/';
const OFFER = '/api/v3/loan_requests/7/make_offer/';
const FUND = '/api/v3/accepted_offers/5/fund/';
const BANKING = '/api/v3/data_marketplace/data_aggregation/fetch_loan_request_data_aggs/';
const PROVIDER = '/api/v3/data_marketplace/data_integration/';

let harness: Harness;
let elsewhere: FixtureServer | undefined;
afterEach(async () => {
  await harness.close();
  await elsewhere?.close();
  elsewhere = undefined;
});

/** The harness, and another origin that answers everything as the real service would. */
async function withElsewhere(): Promise<FixtureServer> {
  harness = await startHarness();
  elsewhere = await startFixtureServer({
    apiKey: API_KEY,
    secretKey: SECRET_KEY,
    nowSeconds: () => Math.floor(harness.clock.now() / 1000),
  });
  const other = elsewhere;
  other.route(`GET ${LIST}`, (_request, server) => pageOf(server, LIST, [], 1, 10));
  other.route(`POST ${OFFER}`, () => ({ status: 201, body: offerJson(1, 7, 0.3, true) }));
  other.route(`POST ${BANKING}`, () => ({ status: 200, body: bankingDataJson() }));
  return other;
}

/** Requests that carried any of our credentials to the other origin. */
function leaked(server: FixtureServer): number {
  return server.requests.filter((request) => request.headers['x-api-key'] !== undefined || request.headers['x-hmac'] !== undefined).length;
}

const redirect = (status: number, location: string) => () => ({ status, headers: { Location: location } });

describe('a redirect to another origin is never followed with our credentials', () => {
  for (const status of [302, 307]) {
    it(`list ${status}: an error naming the redirect, never an empty market`, async () => {
      const other = await withElsewhere();
      harness.server.route(`GET ${LIST}`, redirect(status, `${other.url}${LIST}`));

      const error = await serviceFailure(harness.client.listLoanRequests());
      expect(error.code).toBe('REDIRECT_REFUSED');
      expect(error.message).toBe(
        `GET ${LIST} ${status} redirect to ${other.url} not followed (another origin than the base URL's: the signed headers never leave it)`,
      );
      expect(error.transient).toBe(false);
      // Every way of reading the list fails: whole (reconciler, account sync) and scanned (the poll).
      expect((await serviceFailure(collectPages(harness.client.loanRequestPages()))).code).toBe('REDIRECT_REFUSED');
      const progress: ScanProgress = { pages: 0 };
      const scan = (async () => {
        for await (const page of scanPages(harness.client.loanRequestPages(), progress)) void page;
      })();
      expect((await serviceFailure(scan)).code).toBe('REDIRECT_REFUSED');
      expect(leaked(other)).toBe(0);
      expect(other.requests).toHaveLength(0);
    });

    it(`make_offer ${status}: the outcome is unknown, and the body is not posted again`, async () => {
      const other = await withElsewhere();
      harness.server.route(`POST ${OFFER}`, redirect(status, `${other.url}${OFFER}`));

      const error = await serviceFailure(harness.client.makeOffer(7, { offeredInterest: 0.3, automateFund: true }));
      expect(error.code).toBe('AMBIGUOUS_OUTCOME');
      expect(error.message).toBe(`POST ${OFFER} ${status} redirect to ${other.url} not followed: the request may have been applied`);
      expect(harness.server.requests).toHaveLength(1);
      expect(leaked(other)).toBe(0);
      expect(other.requests).toHaveLength(0);
    });
  }

  it('banking data 307: refused, the loan request id not posted elsewhere', async () => {
    const other = await withElsewhere();
    harness.server.route(`POST ${BANKING}`, redirect(307, `${other.url}${BANKING}`));

    const error = await serviceFailure(harness.client.fetchBankingData(17));
    expect(error.code).toBe('REDIRECT_REFUSED');
    expect(error.message).toContain(`POST ${BANKING} 307 redirect to ${other.url} not followed`);
    expect(leaked(other)).toBe(0);
    expect(other.requests).toHaveLength(0);
  });

  it('names only the origin of a Location carrying credentials or tokens, and never ours', async () => {
    const other = await withElsewhere();
    const port = new URL(other.url).port;
    harness.server.route(`GET ${LIST}`, redirect(302, `http://thief:hunter2@127.0.0.1:${port}/steal?token=abc`));

    const error = await serviceFailure(harness.client.listLoanRequests());
    expect(error.message).toContain(`redirect to http://127.0.0.1:${port} not followed`);
    for (const secret of ['thief', 'hunter2', 'token=abc', API_KEY, SECRET_KEY]) expect(error.message).not.toContain(secret);
    expect(other.requests).toHaveLength(0);
  });

  it('treats another scheme or port on the same host as another origin', async () => {
    harness = await startHarness();
    const { port } = new URL(harness.server.url);
    harness.server.route(`GET ${LIST}`, redirect(301, `https://127.0.0.1:${port}${LIST}`));
    expect((await serviceFailure(harness.client.listLoanRequests())).message).toContain(
      `redirect to https://127.0.0.1:${port} not followed (another origin`,
    );
    harness.server.route(`GET ${LIST}`, redirect(301, `http://localhost:${port}${LIST}`));
    expect((await serviceFailure(harness.client.listLoanRequests())).code).toBe('REDIRECT_REFUSED');
    expect(harness.server.requests).toHaveLength(2);
  });
});

describe('redirects on our own origin', () => {
  it('a GET read follows, signed afresh, and reads the page', async () => {
    harness = await startHarness();
    harness.server.route(`GET ${LIST}`, redirect(301, '/api/v3/loan_requests/all/?page=1'));
    harness.server.route('GET /api/v3/loan_requests/all/', (_request, server) =>
      pageOf(server, LIST, [loanRequestJson(1), loanRequestJson(2)], 1, 10),
    );

    const page = await harness.client.listLoanRequests();
    expect(page.items.map((item) => item.id)).toEqual([1, 2]);
    expect(harness.server.requests.map((request) => [request.path, request.headers['x-hmac'] !== undefined])).toEqual([
      [LIST, true],
      ['/api/v3/loan_requests/all/', true],
    ]);
  });

  it('a GET read follows at most 3 redirects', async () => {
    harness = await startHarness();
    harness.server.route(`GET ${LIST}`, (request) => redirect(302, `${LIST}?hop=${Number(request.query.get('hop') ?? '0') + 1}`)());
    const error = await serviceFailure(harness.client.listLoanRequests());
    expect(error.code).toBe('REDIRECT_REFUSED');
    expect(error.message).toContain('(more than 3 redirects)');
    expect(harness.server.requests).toHaveLength(4);
  });

  it('offers and funding never follow: the outcome is unknown', async () => {
    harness = await startHarness();
    harness.server.route(`POST ${OFFER}`, redirect(307, '/api/v3/loan_requests/7/make_offer/again/'));
    harness.server.route(`POST ${FUND}`, redirect(303, '/api/v3/accepted_offers/5/'));
    expect((await serviceFailure(harness.client.makeOffer(7, { offeredInterest: 0.3 }))).code).toBe('AMBIGUOUS_OUTCOME');
    expect((await serviceFailure(harness.client.fundAcceptedOffer(5))).code).toBe('AMBIGUOUS_OUTCOME');
    expect(harness.server.requests.map((request) => request.path)).toEqual([OFFER, FUND]);
  });

  it('a paid call and the banking-data POST never follow', async () => {
    harness = await startHarness();
    harness.server.route(`POST ${PROVIDER}`, redirect(307, `${PROVIDER}v2/`));
    harness.server.route(`POST ${BANKING}`, redirect(307, `${BANKING}v2/`));
    const paid = await serviceFailure(harness.client.fetchProviderResult(17, 'provider_b'));
    expect([paid.code, paid.message]).toEqual([
      'REDIRECT_REFUSED',
      `POST ${PROVIDER} 307 redirect to ${harness.server.url} not followed (a paid call never follows a redirect)`,
    ]);
    const banking = await serviceFailure(harness.client.fetchBankingData(17));
    expect(banking.message).toContain('(only GET reads follow a redirect)');
    expect(harness.server.requests).toHaveLength(2);
  });

  it('a 3xx without a Location is refused', async () => {
    harness = await startHarness();
    harness.server.route(`GET ${LIST}`, () => ({ status: 302 }));
    const error = await serviceFailure(harness.client.listLoanRequests());
    expect([error.code, error.message]).toEqual([
      'REDIRECT_REFUSED',
      `GET ${LIST} 302 redirect without a usable Location not followed (nowhere to go)`,
    ]);
  });
});
