/**
 * Issue 24, item 1 (the client's part): a 2xx answer to make_offer that lendbot could not read was
 * MALFORMED_RESPONSE, which the daemon stored as `refused`, reserving nothing: with 2,000 USD it
 * placed 20 automate_fund offers, 6,330 USD. A 2xx means the offer exists; an answer that cannot
 * be read, a redirect, or a 4xx that is no recognised refusal is AMBIGUOUS_OUTCOME, which the
 * daemon keeps as `unknown`, reserving the money until it is reconciled.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { OfferPlacer } from '../../src/daemon/offer-placer.js';
import { silentLogger } from '../../src/log/logger.js';
import { plausibleLoanRequestSchema, ServiceError } from '../../src/service/index.js';
import { openStore } from '../../src/store/index.js';
import { startHarness, type Harness, serviceFailure } from './client-harness.js';
import type { FixtureReply } from './fixture-server.js';
import { loanRequestJson, offerJson } from './fixtures/resources.js';

const OFFER = 'POST /api/v3/loan_requests/7/make_offer/';
const FUND = 'POST /api/v3/accepted_offers/5/fund/';

let harness: Harness;
const dirs: string[] = [];
afterEach(async () => {
  await harness.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const offer = offerJson(41, 7, 0.3, true);
/** 2xx answers to make_offer that cannot be read, and why the error says so. */
const UNREADABLE_OFFERS: Array<[string, FixtureReply, string]> = [
  ['a body that is not JSON', { status: 201, rawBody: '<html>Offer created</html>', headers: { 'Content-Type': 'text/html' } }, 'not JSON'],
  ['an empty body', { status: 200, rawBody: '' }, 'no body'],
  ['204 No Content', { status: 204 }, 'no body'],
  [
    'an id as text',
    { status: 201, rawBody: '41' },
    'it does not match the documented shape at $: Invalid input: expected object, received number',
  ],
  [
    'the id as a string',
    { status: 201, body: { ...offer, id: '41' } },
    'it does not match the documented shape at $.id: Invalid input: expected number, received string',
  ],
  [
    'no offer_status',
    { status: 201, body: { ...offer, offer_status: undefined } },
    'it does not match the documented shape at $.offer_status: Invalid input: expected string, received undefined',
  ],
  [
    'a rate as text',
    { status: 201, body: { ...offer, offered_interest: '0.3' } },
    'it does not match the documented shape at $.offered_interest: Invalid input: expected number, received string',
  ],
  ['JSON null', { status: 200, rawBody: 'null' }, 'no body'],
];

describe('an unreadable 2xx answer to make_offer is an unknown outcome, never a refusal', () => {
  for (const [name, reply, why] of UNREADABLE_OFFERS) {
    it(name, async () => {
      harness = await startHarness();
      harness.server.route(OFFER, () => reply);
      const error = await serviceFailure(harness.client.makeOffer(7, { offeredInterest: 0.3, automateFund: true }));
      expect(error.code).toBe('AMBIGUOUS_OUTCOME');
      expect(error.status).toBe(reply.status);
      // A text that is not JSON follows, as the service's own words (here `: <html>Offer created</html>`).
      expect(error.message).toContain(
        `POST /api/v3/loan_requests/7/make_offer/ ${reply.status} the service answered ${reply.status} but the answer could not be read (${why}); the request may have been applied`,
      );
      expect(harness.server.requests).toHaveLength(1);
    });
  }

  it('and the daemon keeps such an offer as unknown, reserving its money', async () => {
    harness = await startHarness();
    harness.server.route(OFFER, () => ({ status: 201, rawBody: '41' }));
    const dir = mkdtempSync(join(tmpdir(), 'lendbot-unreadable-'));
    dirs.push(dir);
    const store = openStore(join(dir, 'lendbot.db'));
    try {
      const placer = new OfferPlacer({ client: harness.client, store, clock: harness.clock, log: silentLogger, dryRun: false });
      const request = plausibleLoanRequestSchema.parse(loanRequestJson(7));
      const outcome = await placer.place(request, 0.3, true);
      expect(outcome.kind).toBe('unknown');
      expect(store.offers.getByRequest(7)?.state).toBe('unknown');
      // total_amount 535.00 stays reserved until the offer is reconciled.
      expect(store.offers.reserved({ nowMs: harness.clock.now(), expiryMs: 72 * 3_600_000 })).toBe(53_500);
    } finally {
      store.close();
    }
  });
});

describe('an unreadable 2xx answer to fund is an unknown outcome (funding may have started)', () => {
  const replies: Array<[string, FixtureReply]> = [
    ['not JSON', { status: 201, rawBody: 'Funding has started.' }],
    ['204 No Content', { status: 204 }],
    ['no message', { status: 201, body: { started: true } }],
  ];
  for (const [name, reply] of replies) {
    it(name, async () => {
      harness = await startHarness();
      harness.server.route(FUND, () => reply);
      const error = await serviceFailure(harness.client.fundAcceptedOffer(5));
      expect(error.code).toBe('AMBIGUOUS_OUTCOME');
      expect(error.message).toContain(`the service answered ${reply.status} but the answer could not be read`);
    });
  }
});

describe('only a clear refusal settles an offer or funding call', () => {
  async function offerError(status: number, detail: string): Promise<ServiceError> {
    harness = await startHarness();
    harness.server.route(OFFER, () => ({ status, body: { detail } }));
    return serviceFailure(harness.client.makeOffer(7, { offeredInterest: 0.3 }));
  }

  it('make_offer: a 4xx with a text lendbot does not recognise is unknown', async () => {
    for (const [status, detail] of [
      [400, 'Something went wrong.'],
      [404, 'Not found.'],
      [409, 'Conflict.'],
      [422, 'Unprocessable.'],
    ] as const) {
      const error = await offerError(status, detail);
      expect([error.code, error.status, error.message]).toEqual([
        'AMBIGUOUS_OUTCOME',
        status,
        `POST /api/v3/loan_requests/7/make_offer/ ${status} is not a refusal lendbot recognises; the request may have been applied: ${detail}`,
      ]);
      await harness.close();
    }
    harness = await startHarness();
  });

  it('make_offer: a recognised refusal, authentication and rate limits keep their codes', async () => {
    expect((await offerError(400, 'This loan request has already been signed.')).code).toBe('RULE_REFUSED');
    await harness.close();
    expect((await offerError(422, 'You have already made an offer for this Loan Request')).refusal).toBe('offer_exists');
    await harness.close();
    expect((await offerError(403, 'Invalid API Key')).code).toBe('AUTH_INVALID_API_KEY');
    await harness.close();
    expect((await offerError(401, 'Unauthorized')).code).toBe('AUTH_FORBIDDEN');
    await harness.close();
    expect((await offerError(429, 'Slow down.')).code).toBe('RATE_LIMITED');
  });

  it('fund: 400 is a refusal whatever its text (spec 4.3); another unrecognised 4xx is unknown', async () => {
    harness = await startHarness();
    harness.server.route(FUND, () => ({ status: 400, body: { detail: 'Cannot be funded right now.' } }));
    expect((await serviceFailure(harness.client.fundAcceptedOffer(5))).code).toBe('RULE_REFUSED');
    harness.server.route(FUND, () => ({ status: 409, body: { detail: 'Conflict.' } }));
    expect((await serviceFailure(harness.client.fundAcceptedOffer(5))).code).toBe('AMBIGUOUS_OUTCOME');
    harness.server.route(FUND, () => ({ status: 404, body: { detail: 'Not found.' } }));
    expect((await serviceFailure(harness.client.fundAcceptedOffer(5))).code).toBe('AMBIGUOUS_OUTCOME');
  });
});
