// The offer view (store/offer-view.ts) on a real SQLite file: each state from what the store
// holds, the reserving mark agreeing with the guard's reserved figure, pages filtered by state,
// and counts by scope.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loanSchema, offerSchema } from '../../src/domain/index.js';
import { offerFate, type OfferListing } from '../../src/store/offer-fate.js';
import { databaseOf, type OfferViewQuery, type Store } from '../../src/store/index.js';
import { HOUR, T0, loanRequest, tempStore } from './fixtures.js';

const EXPIRY = 72 * HOUR;
let store: Store;
let cleanup: () => void;
beforeEach(() => {
  ({ store, cleanup } = tempStore());
});
afterEach(() => cleanup());

const at = (nowMs: number, includeManual = false): OfferViewQuery => ({ nowMs, expiryMs: EXPIRY, includeManual });

/** An offer on request `id` the service took (placed), made at `atMs`. */
function placed(id: number, atMs = T0, options: { automateFund?: boolean; dryRun?: boolean } = {}): number {
  const result = store.offers.createIntent({
    request: loanRequest({ id, totalAmount: '100.00' }),
    rate: 0.2,
    automateFund: options.automateFund ?? true,
    dryRun: options.dryRun ?? false,
    atMs,
  });
  if (!result.created) throw new Error('intent refused');
  const offer = offerSchema.parse({
    id: 9000 + id,
    offered_interest: 0.2,
    offer_status: 'pending',
    automate_fund: true,
    created: '2026-03-10T12:00:01Z',
  });
  store.offers.markPlaced(result.offer.id, offer, atMs);
  return result.offer.id;
}

function loan(id: number, loanRequestId: number, status: string) {
  return loanSchema.parse({
    id,
    loan_request_id: loanRequestId,
    loan_amount: 100,
    interest_rate: 0.2,
    status,
    loan_balance: 100,
    loan_paid_off: false,
  });
}

/** A poll that listed `listed` and would have listed every request. */
function scan(listed: number[], atMs: number): void {
  store.offers.noteListing({ listedIds: new Set(listed), wouldList: () => true }, atMs);
}

/** What the poll noted of an offer's request, straight from its table. */
function databaseListing(offerId: number): OfferListing {
  const row = databaseOf(store)
    .prepare<[number], { listed_until: string | null; left_list_at: string | null }>(
      'SELECT listed_until, left_list_at FROM offer_listings WHERE offer_id = ?',
    )
    .get(offerId);
  return { listedUntil: row?.listed_until ?? null, leftListAt: row?.left_list_at ?? null };
}

const stateOf = (loanRequestId: number, nowMs: number): string | undefined => {
  const record = store.offers.getByRequest(loanRequestId);
  return record === undefined ? undefined : store.offers.view(record, at(nowMs)).state;
};

describe('the offer view', () => {
  it('reads each state from the offer, its listing and our loan', () => {
    store.offers.createIntent({ request: loanRequest({ id: 1 }), rate: 0.2, automateFund: true, dryRun: false, atMs: T0 });
    const unknown = store.offers.createIntent({ request: loanRequest({ id: 2 }), rate: 0.2, automateFund: true, dryRun: false, atMs: T0 });
    if (unknown.created) store.offers.markUnknown(unknown.offer.id, 'socket hang up', T0);
    const refused = store.offers.createIntent({ request: loanRequest({ id: 3 }), rate: 0.2, automateFund: true, dryRun: false, atMs: T0 });
    if (refused.created) store.offers.markRefused(refused.offer.id, 'rate too high', T0);
    for (const id of [4, 5, 6, 7, 8]) placed(id);
    store.offers.setState(store.offers.getByRequest(8)?.id ?? 0, 'rejected', T0);
    store.account.upsertLoans([loan(50, 5, 'pending')], 'current', T0 + HOUR);
    store.account.upsertLoans([loan(51, 6, 'funded')], 'current', T0 + HOUR);
    scan([4, 5, 6], T0 + HOUR);
    scan([4, 5, 6], T0 + 2 * HOUR);

    const now = T0 + 3 * HOUR;
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((id) => stateOf(id, now))).toEqual([
      'sending',
      'unknown',
      'refused',
      'placed',
      'accepted',
      'funded',
      'lost',
      'rejected',
    ]);
    // The offers table still says placed for the lost one: the view is what surfaces show.
    expect(store.offers.getByRequest(7)?.state).toBe('placed');
    // Past its life, the still-listed offer has expired; the lost one stays lost.
    expect([4, 7].map((id) => stateOf(id, T0 + EXPIRY + 1))).toEqual(['expired', 'lost']);
  });

  it('agrees with offerFate (the readable reference), the loan first, over every recorded state, listing and age', () => {
    store.offers.createIntent({ request: loanRequest({ id: 1 }), rate: 0.2, automateFund: true, dryRun: false, atMs: T0 });
    for (const id of [2, 3, 4, 5, 6, 7, 8, 9, 10, 11]) placed(id, T0 + id * HOUR);
    placed(12, T0, { dryRun: true });
    const rejected = store.offers.createIntent({
      request: loanRequest({ id: 13 }),
      rate: 0.2,
      automateFund: true,
      dryRun: false,
      atMs: T0,
    });
    if (rejected.created) {
      const answer = offerSchema.parse({
        id: 9013,
        offered_interest: 0.2,
        offer_status: 'rejected',
        automate_fund: true,
        created: '2026-03-10T12:00:01Z',
      });
      store.offers.markPlaced(rejected.offer.id, answer, T0);
    }
    const id = (loanRequestId: number): number => store.offers.getByRequest(loanRequestId)?.id ?? 0;
    store.offers.markRefused(id(2), 'no', T0);
    store.offers.setState(id(3), 'expired', T0);
    store.offers.setState(id(4), 'accepted', T0);
    placed(14, T0);
    store.offers.setState(id(14), 'funded', T0);
    // 14: funded by our own call, its loan still pending.
    store.account.upsertLoans([loan(70, 5, 'pending'), loan(71, 6, 'funded'), loan(72, 14, 'pending')], 'current', T0 + HOUR);
    // 7 listed past its life, then gone (expired); 8 gone early (lost); 9 and 10 listed throughout; 12 a dry run, gone.
    scan([7, 8, 9, 10, 11, 12], T0 + 12 * HOUR);
    scan([7, 9, 10, 11], T0 + 20 * HOUR);
    scan([7, 9, 10, 11], T0 + EXPIRY + 8 * HOUR);
    scan([9, 10], T0 + EXPIRY + 9 * HOUR);
    const reference = (loanRequestId: number, nowMs: number): string => {
      const record = store.offers.getByRequest(loanRequestId);
      if (record === undefined) throw new Error(`no offer on ${loanRequestId}`);
      const ours = store.account.loanForRequest(loanRequestId);
      if (ours !== undefined && !record.dryRun) return ours.status === 'pending' && record.state !== 'funded' ? 'accepted' : 'funded';
      if (record.state === 'intent') return 'sending';
      if (record.state !== 'placed') return record.state;
      const { fate } = offerFate({
        state: record.state,
        answeredStatus: (JSON.parse(record.offerJson ?? '{}') as { offer_status?: string }).offer_status ?? null,
        createdAt: record.createdAt,
        listing: databaseListing(record.id),
        requestCreatedMs: null,
        nowMs,
        expiryMs: EXPIRY,
      });
      return fate === 'pending' ? 'placed' : fate;
    };
    const ids = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14];
    for (const nowMs of [T0 + 13 * HOUR, T0 + 9 * HOUR + EXPIRY, T0 + 9 * HOUR + EXPIRY + 1, T0 + 10 * HOUR + EXPIRY, T0 + 30 * EXPIRY]) {
      const shown = Object.fromEntries(store.offers.views({ limit: 100 }, at(nowMs)).map((offer) => [offer.loanRequestId, offer.state]));
      expect(shown, new Date(nowMs).toISOString()).toEqual(
        Object.fromEntries(ids.map((loanRequestId) => [loanRequestId, reference(loanRequestId, nowMs)])),
      );
    }
    // Every state of the table above shows up somewhere on that grid.
    const seen = new Set(
      ids.flatMap((loanRequestId) => [T0 + 13 * HOUR, T0 + 30 * EXPIRY].map((nowMs) => reference(loanRequestId, nowMs))),
    );
    expect([...seen].sort()).toEqual(['accepted', 'expired', 'funded', 'lost', 'placed', 'refused', 'rejected', 'sending']);
  });

  it('marks as reserving exactly the offers the guard counts in reserved, a lost one until its life ends', () => {
    for (const id of [1, 2, 3]) placed(id);
    placed(4, T0, { automateFund: false });
    placed(5, T0 - EXPIRY);
    store.account.upsertLoans([loan(60, 2, 'funded')], 'current', T0);
    scan([1], T0 + HOUR);
    const now = T0 + 2 * HOUR;
    for (const includeManual of [false, true]) {
      const views = store.offers.views({ limit: 100 }, at(now, includeManual));
      const reserving = views.filter((offer) => offer.reserving);
      expect(reserving.map((offer) => offer.loanRequestId).sort()).toEqual(includeManual ? [1, 3, 4] : [1, 3]);
      expect(reserving.reduce((sum, offer) => sum + offer.totalAmountCents, 0)).toBe(
        store.offers.reserved({ nowMs: now, expiryMs: EXPIRY, includeManual }),
      );
    }
    expect(stateOf(3, now)).toBe('lost');
  });

  it('pages newest first, filtered by state, and counts one scope', () => {
    for (let id = 1; id <= 7; id += 1) placed(id, T0 + id);
    placed(8, T0, { dryRun: true });
    scan([2, 4, 6, 8], T0 + HOUR);
    const now = T0 + 2 * HOUR;
    const lost = store.offers.views({ limit: 2, states: ['lost'], dryRun: false }, at(now));
    expect(lost.map((offer) => offer.loanRequestId)).toEqual([7, 5]);
    const next = store.offers.views({ limit: 2, states: ['lost'], dryRun: false, beforeId: lost[1]?.id }, at(now));
    expect(next.map((offer) => offer.loanRequestId)).toEqual([3, 1]);
    expect(store.offers.views({ limit: 100 }, at(now)).map((offer) => offer.loanRequestId)).toEqual([8, 7, 6, 5, 4, 3, 2, 1]);
    expect(store.offers.viewCounts({ sinceMs: T0 }, at(now))).toMatchObject({ placed: 3, lost: 4 });
    expect(store.offers.viewCounts({ dryRun: true, sinceMs: T0 }, at(now))).toMatchObject({ placed: 1, lost: 0 });
    // Only offers made since: 1 to 3 are older than T0 + 4 ms.
    expect(store.offers.viewCounts({ sinceMs: T0 + 4 }, at(now))).toMatchObject({ placed: 2, lost: 2 });
  });
});
