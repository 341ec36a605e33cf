/**
 * A daemon against a fixture market whose loan lists say lendbot's loans are owed nothing (or less
 * than nothing) while they are not paid off (issue 24, item 2): the exposure cap still holds,
 * since a loan counts at no less than what lendbot offered on its request, and never below zero.
 * Before, with max_open_exposure 1,000, lendbot made 3 offers of 316.50, synced their loans at
 * 0.00 and offered again on every new request that fit the balance.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { loanJson, loanRequestJson } from '../service/fixtures/resources.js';
import { ids, LIST, startPollFixture, type PollFixture } from './poll-fixture.js';

let fixture: PollFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

const TOTAL_CENTS = 31_650;
const requestJson = (id: number) =>
  loanRequestJson(id, {
    loan_amount: '300.00',
    total_amount: '316.50',
    total_fees: '16.50',
    fee_legislative: '1.50',
    fee_extra: '5.00',
    fee_svc: '10.00',
  });
const page = (results: unknown[]) => ({ status: 200, body: { count: results.length, next: null, previous: null, results } });

describe('exposure after a sync of loans the service reports as owing nothing', () => {
  it('keeps counting what lendbot lent: no offer beyond max_open_exposure', async () => {
    fixture = await startPollFixture({ config: { risk: { max_open_exposure: 1000, max_per_borrower: null, max_amount_per_day: null } } });
    const f = fixture;
    let listed = ids(1, 3);
    f.server.route(LIST, () => page(listed.map(requestJson)));
    // Lendbot's three loans, funded and running, each "owing" 0.00; and one made outside lendbot
    // at -100,000.00 (left out by the client, or counted as nothing).
    let loans: unknown[] = [];
    f.server.route('GET /api/v3/loans/current_loan/', () => page(loans));
    for (const list of ['completed_loan', 'collection_loan', 'default_loan']) f.server.route(`GET /api/v3/loans/${list}/`, () => page([]));

    await f.daemon.runJob('poll');
    expect(f.store.offers.listByState(['placed']).map((offer) => offer.loanRequestId)).toEqual([1, 2, 3]);

    loans = [
      ...ids(1, 3).map((id) =>
        loanJson(100 + id, { loan_request_id: id, loan_amount: 316.5, loan_balance: 0, remaining_debt: 0, loan_due_amount: 0 }),
      ),
      loanJson(200, { loan_request_id: 9_000, loan_balance: -100_000, remaining_debt: -100_000 }),
    ];
    await f.daemon.runJob('sync');
    expect(f.store.offers.listByState(['funded']).map((offer) => offer.loanRequestId)).toEqual([1, 2, 3]);
    const scope = { nowMs: f.clock.now(), expiryMs: 72 * 3_600_000 };
    expect(f.store.exposure.summary(scope).totalCents).toBe(3 * TOTAL_CENTS);

    listed = ids(1, 8);
    f.clock.advance(60_000);
    await f.daemon.runJob('poll');
    const offeredOn = f.server.requests
      .filter((request) => request.method === 'POST' && request.path.endsWith('/make_offer/'))
      .map((request) => request.path);
    expect(offeredOn).toHaveLength(3);
    expect(ids(4, 8).map((id) => f.store.decisions.get(id)?.guardCode)).toEqual(ids(4, 8).map(() => 'max_open_exposure'));
    expect(f.store.decisions.get(4)?.reasons).toContain('guard exposure 949.50 + total 316.50 > max 1000.00');
  });
});
