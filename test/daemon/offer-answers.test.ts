/**
 * Money held right whatever make_offer answers (issue 24, item 1). The spec does not show the
 * success body, so a 2xx lendbot cannot read still means the offer exists: it is stored
 * `unknown`, keeps reserving its money, and is reconciled. Only a refusal lendbot recognises, or
 * a failure before anything was sent, is stored `refused`. Before, every odd 2xx was `refused`
 * with nothing reserved: with 2,000 USD lendbot placed 20 automate_fund offers of 316.50.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { OfferPlacer } from '../../src/daemon/offer-placer.js';
import { freePort } from '../../src/daemon/free-port.js';
import { silentLogger } from '../../src/log/logger.js';
import { formatCents } from '../../src/domain/index.js';
import type { OfferState } from '../../src/store/index.js';
import type { FixtureReply } from '../service/fixture-server.js';
import { loanRequestJson, offerJson, transferGroupJson } from '../service/fixtures/resources.js';
import { fixtureClient, ids, LIST, loanRequest, startPollFixture, type PollFixture } from './poll-fixture.js';

let fixture: PollFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

const TOTAL_CENTS = 31_650;
const BALANCE_CENTS = 200_000;
const makeOffer = (id: number): string => `POST /api/v3/loan_requests/${id}/make_offer/`;

/** A request of 300.00 plus 16.50 of fees: 316.50 to fund. */
function requestJson(id: number): Record<string, unknown> {
  return loanRequestJson(id, {
    loan_amount: '300.00',
    total_amount: '316.50',
    total_fees: '16.50',
    fee_legislative: '1.50',
    fee_extra: '5.00',
    fee_svc: '10.00',
  });
}

/** A market of `count` such requests and an account holding 2,000.00. */
async function marketOf(count: number): Promise<PollFixture> {
  const f = await startPollFixture();
  f.server.route('GET /api/v3/transfer_history/', () => ({
    status: 200,
    body: { count: 1, next: null, previous: null, results: [transferGroupJson('2026-11-01', [['processed', 'Deposit', '2000.00']])] },
  }));
  f.server.route(LIST, () => ({ status: 200, body: { count, next: null, previous: null, results: ids(1, count).map(requestJson) } }));
  return f;
}

/** Odd 2xx answers a service could give to a make_offer it carried out. */
function oddSuccess(id: number, rate: number): FixtureReply {
  const shapes: FixtureReply[] = [
    { status: 200, rawBody: String(4700 + id), headers: { 'Content-Type': 'text/plain' } },
    { status: 201, body: (({ offer_status: _status, ...rest }) => rest)(offerJson(4700 + id, id, rate, true)) },
    { status: 204, rawBody: '' },
    { status: 200, rawBody: 'OK', headers: { 'Content-Type': 'text/plain' } },
    { status: 200, body: {} },
  ];
  return shapes[id % shapes.length]!;
}

function offersIn(f: PollFixture, states: OfferState[]): Array<{ loanRequestId: number; totalAmountCents: number }> {
  return f.store.offers.listByState(states).filter((offer) => !offer.dryRun);
}

describe('make_offer answered with a 2xx lendbot cannot read', () => {
  it('never promises more than the balance: each such offer is unknown, reserves its money and is reconciled; none is refused', async () => {
    fixture = await marketOf(20);
    const f = fixture;
    // First POST on a request: an odd 2xx (the offer exists). Any later one: the service's
    // refusal of a second offer by the same investor (spec 4.2 rule 7).
    const answered2xx = new Set<number>();
    for (const id of ids(1, 20)) {
      f.server.route(makeOffer(id), (request) => {
        if (answered2xx.has(id)) return { status: 400, body: { detail: 'You have already made an offer for this Loan Request' } };
        answered2xx.add(id);
        return oddSuccess(id, (request.body as { offered_interest: number }).offered_interest);
      });
    }

    await f.daemon.runJob('poll');

    // At the service: every offer it was sent exists; together they fit the balance.
    const atService = answered2xx.size * TOTAL_CENTS;
    expect(formatCents(atService)).toBe(formatCents(6 * TOTAL_CENTS));
    expect(atService).toBeLessThanOrEqual(BALANCE_CENTS);
    // In the store: what was sent and not clearly refused is exactly that, and holds its money.
    const held = offersIn(f, ['placed', 'unknown', 'intent']);
    expect(held.map((offer) => offer.loanRequestId).sort((a, b) => a - b)).toEqual([...answered2xx].sort((a, b) => a - b));
    expect(held.reduce((sum, offer) => sum + offer.totalAmountCents, 0)).toBe(atService);
    expect(offersIn(f, ['refused'])).toEqual([]);
    expect(offersIn(f, ['unknown'])).toHaveLength(6);
    expect(f.store.offers.reserved({ nowMs: f.clock.now(), expiryMs: 72 * 3_600_000 })).toBe(atService);
    // The other 14 were refused by the guard, before any POST.
    const skipped = ids(1, 20).filter((id) => !answered2xx.has(id));
    expect(skipped.map((id) => f.store.decisions.get(id)?.guardCode)).toEqual(skipped.map(() => 'insufficient_balance'));

    // The next poll asks again about each unknown one: "already made an offer" settles it as placed.
    f.clock.advance(60_000);
    await f.daemon.runJob('poll');
    expect(
      offersIn(f, ['placed'])
        .map((offer) => offer.loanRequestId)
        .sort((a, b) => a - b),
    ).toEqual([...answered2xx].sort((a, b) => a - b));
    expect(offersIn(f, ['unknown', 'intent', 'refused'])).toEqual([]);
    expect(answered2xx.size * TOTAL_CENTS).toBeLessThanOrEqual(BALANCE_CENTS);
  });
});

describe('which failed make_offer answers release the money', () => {
  const cases: Array<[what: string, reply: FixtureReply, state: OfferState]> = [
    ['a 400 with a refusal lendbot knows', { status: 400, body: { detail: 'This loan request has already been signed.' } }, 'refused'],
    ['a 403 with a spec authentication text', { status: 403, body: { detail: 'Invalid API Key' } }, 'refused'],
    ['a 400 with a text lendbot does not know', { status: 400, body: { detail: 'Something new went wrong.' } }, 'unknown'],
    ['a 409 without a text', { status: 409, body: {} }, 'unknown'],
    ['a 404', { status: 404, body: { detail: 'Not found.' } }, 'unknown'],
    ['a 429', { status: 429, body: { detail: 'Slow down.' } }, 'unknown'],
    ['a 302 to elsewhere', { status: 302, body: {}, headers: { Location: 'http://127.0.0.1:9/' } }, 'unknown'],
    ['a 500', { status: 500, body: { detail: 'Server Error' } }, 'unknown'],
  ];

  it.each(cases)('%s is stored %s', async (_what, reply, state) => {
    fixture = await marketOf(1);
    const f = fixture;
    f.server.route(makeOffer(1), () => reply);
    await f.daemon.poller.poll();
    expect(f.store.offers.getByRequest(1)?.state).toBe(state);
  });

  it('a connection refused (nothing sent) is refused, and so is a bad argument caught before sending', async () => {
    fixture = await marketOf(1);
    const f = fixture;
    const closed = `http://127.0.0.1:${await freePort()}`;
    const client = fixtureClient(closed, f.clock, 2000);
    const placer = new OfferPlacer({ client, store: f.store, clock: f.clock, log: silentLogger, dryRun: false });
    expect(await placer.place(loanRequest(1), 0.2, true)).toMatchObject({
      kind: 'refused',
      text: expect.stringMatching(/^NETWORK_ERROR: /) as unknown,
    });
    expect(await placer.place(loanRequest(2), 7, true)).toMatchObject({
      kind: 'refused',
      text: expect.stringMatching(/^INVALID_ARGUMENT: /) as unknown,
    });
    expect(f.store.offers.getByRequest(1)?.state).toBe('refused');
    expect(f.store.offers.getByRequest(2)?.state).toBe('refused');
  });
});
