/**
 * Exposure never goes below what lendbot itself has lent and offered (issue 24, item 2): a synced
 * loan whose balance the service reports negative (or zero before it is paid off) counts for no
 * less than nothing, and a loan on a request lendbot offered on for no less than that offer's
 * total. Before, one loan at -100,000 made exposure -100,000.00 and with max_open_exposure 1,000
 * lendbot offered 8 times where 3 fit. Loans are written the way the account sync writes them.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { guardReason } from '../../src/domain/decision-reason.js';
import { checkOffer, riskLimitsSchema, snapshotFromStore, type RiskLimits } from '../../src/risk/index.js';
import { offerSchema, type Loan } from '../../src/domain/index.js';
import { databaseOf, type Store } from '../../src/store/index.js';
import { openOfferBookOf } from '../../src/store/open-offer-book.js';
import { loanRequest, tempStore } from '../store/fixtures.js';
import { snapshot } from './guard-snapshot.js';

const T0 = Date.parse('2026-11-20T14:00:00Z');
const limits: RiskLimits = riskLimitsSchema.parse({ max_open_exposure: 1000, max_per_borrower: null, max_amount_per_day: null });
/** 296.50 and 20.00 of fees: 316.50 to fund; three fit under 1,000. */
const request = (id: number) => loanRequest({ id, borrowerId: 500 + id, loanAmount: '296.50', totalAmount: '316.50' });

let store: Store;
let cleanup: () => void;
beforeEach(() => {
  ({ store, cleanup } = tempStore());
});
afterEach(() => cleanup());

/** A loan as a service that cannot count might list it. */
function loan(id: number, loanRequestId: number, balance: { loan_balance?: number; remaining_debt?: number }): Loan {
  return {
    id,
    loan_request_id: loanRequestId,
    borrower_card_color: 1,
    loan_amount: 300,
    interest_rate: 0.25,
    status: 'funded',
    loan_paid_off: false,
    ...balance,
  };
}

/** The daemon's loop in small: ask the guard about each request, place what it allows. */
function offerOnEach(ids: number[]): number[] {
  const placed: number[] = [];
  for (const id of ids) {
    const verdict = checkOffer(
      { request: request(id), rate: 0.3, automateFund: true },
      snapshotFromStore(store, 10_000_000, T0, limits),
      limits,
    );
    if (!verdict.allowed) continue;
    const intent = store.offers.createIntent({ request: request(id), rate: 0.3, automateFund: true, dryRun: false, atMs: T0 });
    if (!intent.created) throw new Error('intent refused');
    store.offers.markPlaced(intent.offer.id, offerSchema.parse({ id, offered_interest: 0.3, offer_status: 'pending' }), T0);
    placed.push(id);
  }
  return placed;
}

describe('exposure from loans the service reports wrong', () => {
  it('a loan at -100,000.00 made outside lendbot counts for nothing, not less: 3 offers of 316.50 fit under 1,000, not 8', () => {
    store.account.upsertLoans([loan(90, 9_000, { loan_balance: -100_000 })], 'current', T0);
    expect(store.exposure.summary({ nowMs: T0, expiryMs: limits.offerExpiryMs }).totalCents).toBe(0);

    expect(offerOnEach([1, 2, 3, 4, 5, 6, 7, 8])).toEqual([1, 2, 3]);
    expect(store.exposure.summary({ nowMs: T0, expiryMs: limits.offerExpiryMs }).totalCents).toBe(3 * 31_650);
  });

  it("loans on lendbot's own offers count at least the offers' totals, whatever balance or debt the service reports", () => {
    expect(offerOnEach([1, 2, 3])).toEqual([1, 2, 3]);
    // The sync finds the three funded, with balances that cannot be right.
    store.account.upsertLoans(
      [loan(91, 1, { loan_balance: -100_000 }), loan(92, 2, { remaining_debt: -5 }), loan(93, 3, { loan_balance: 0 })],
      'current',
      T0,
    );
    const exposure = store.exposure.summary({ nowMs: T0, expiryMs: limits.offerExpiryMs });
    expect(exposure.totalCents).toBe(3 * 31_650);
    expect(exposure.byBorrowerCents.get(501)).toBe(31_650);
    expect(exposure.byRiskLevelCents).toEqual({ 1: 3 * 31_650 });
    expect(offerOnEach([4, 5, 6, 7, 8])).toEqual([]);
    // The SQL the in-memory book stands for agrees.
    expect(openOfferBookOf(databaseOf(store)).recount.exposure({ nowMs: T0, expiryMs: limits.offerExpiryMs }).totalCents).toBe(3 * 31_650);

    // Paid off, a loan counts for nothing at all.
    store.account.upsertLoans([{ ...loan(93, 3, { loan_balance: 0 }), loan_paid_off: true }], 'current', T0);
    expect(store.exposure.summary({ nowMs: T0, expiryMs: limits.offerExpiryMs }).totalCents).toBe(2 * 31_650);
    expect(offerOnEach([4, 5])).toEqual([4]);
  });

  it('the guard itself never reads a negative exposure as room', () => {
    const offer = { request: request(1), rate: 0.3, automateFund: true };
    const negative = snapshot({
      exposureCents: -10_000_000,
      exposureByBorrowerCents: () => -10_000_000,
      exposureByRiskLevelCents: { 1: -10_000_000 },
    });
    expect(
      checkOffer(offer, negative, riskLimitsSchema.parse({ max_open_exposure: 300, max_per_borrower: null, max_amount_per_day: null })),
    ).toMatchObject({
      allowed: false,
      code: 'max_open_exposure',
      reason: guardReason({ guardCode: 'max_open_exposure', exposure: '0.00', total: '316.50', max: '300.00' }),
    });
    expect(
      checkOffer(offer, negative, riskLimitsSchema.parse({ max_open_exposure: null, max_per_borrower: 300, max_amount_per_day: null })),
    ).toMatchObject({
      allowed: false,
      code: 'max_per_borrower',
    });
    expect(
      checkOffer(
        offer,
        negative,
        riskLimitsSchema.parse({
          max_open_exposure: 1000,
          max_per_borrower: null,
          max_amount_per_day: null,
          max_share_by_risk_level: { 1: 0.3 },
        }),
      ),
    ).toMatchObject({ allowed: false, code: 'max_share_by_risk_level' });
  });
});
