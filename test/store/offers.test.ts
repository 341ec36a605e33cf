import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { offerSchema } from '../../src/domain/index.js';
import type { IntentInput, Store } from '../../src/store/index.js';
import { DAY, HOUR, T0, loanRequest, tempStore, type LoanRequestOverrides } from './fixtures.js';

let store: Store;
let cleanup: () => void;
beforeEach(() => {
  ({ store, cleanup } = tempStore());
});
afterEach(() => cleanup());

function intent(overrides: LoanRequestOverrides & Partial<Omit<IntentInput, 'request'>> = {}): IntentInput {
  return {
    request: loanRequest(overrides),
    rate: overrides.rate ?? 0.25,
    automateFund: overrides.automateFund ?? true,
    dryRun: overrides.dryRun ?? false,
    atMs: overrides.atMs ?? T0,
  };
}

function serviceOffer(id: number, status = 'pending') {
  return offerSchema.parse({ id, offered_interest: 0.25, offer_status: status, automate_fund: true, created: '2026-03-10T12:00:01Z' });
}

/** Creates an intent and returns its id, failing the test if it was refused. */
function create(overrides: Parameters<typeof intent>[0] = {}): number {
  const result = store.offers.createIntent(intent(overrides));
  if (!result.created) throw new Error('intent unexpectedly refused');
  return result.offer.id;
}

describe('offer intents', () => {
  it('writes an intent with the request facts', () => {
    const result = store.offers.createIntent(intent({ id: 42, borrowerId: 9, riskLevel: 2, totalAmount: '777.70' }));
    expect(result).toEqual({
      created: true,
      offer: {
        id: 1,
        loanRequestId: 42,
        rate: 0.25,
        automateFund: true,
        totalAmountCents: 77770,
        riskLevel: 2,
        borrowerId: 9,
        state: 'intent',
        serviceOfferId: null,
        serviceText: null,
        offerJson: null,
        createdAt: '2026-03-10T12:00:00.000Z',
        updatedAt: '2026-03-10T12:00:00.000Z',
        dryRun: false,
      },
    });
  });

  it('refuses a second intent for the same request, returning the first untouched', () => {
    const id = create({ id: 42 });
    store.offers.markUnknown(id, 'socket hang up', T0 + 1000);
    const again = store.offers.createIntent(intent({ id: 42, rate: 0.5, atMs: T0 + HOUR }));
    expect(again.created).toBe(false);
    expect(again.created ? undefined : again.existing).toMatchObject({ id, rate: 0.25, state: 'unknown', serviceText: 'socket hang up' });
    expect(store.offers.listByState(['intent', 'unknown', 'placed'])).toHaveLength(1);
  });

  it('moves through placed, refused, unknown and later states', () => {
    const a = create({ id: 1 });
    const b = create({ id: 2 });
    const c = create({ id: 3 });
    expect(store.offers.markPlaced(a, serviceOffer(9001), T0 + 1)).toBe(true);
    expect(store.offers.markRefused(b, 'You have already made an offer on this loan request.', T0 + 2)).toBe(true);
    expect(store.offers.markUnknown(c, 'ETIMEDOUT', T0 + 3)).toBe(true);

    expect(store.offers.get(a)).toMatchObject({ state: 'placed', serviceOfferId: 9001, updatedAt: '2026-03-10T12:00:00.001Z' });
    expect(JSON.parse(store.offers.get(a)?.offerJson ?? 'null')).toMatchObject({ id: 9001, offer_status: 'pending' });
    expect(store.offers.getByRequest(2)).toMatchObject({
      state: 'refused',
      serviceText: 'You have already made an offer on this loan request.',
    });
    expect(store.offers.getByRequest(3)).toMatchObject({ state: 'unknown', serviceText: 'ETIMEDOUT' });

    expect(store.offers.setState(a, 'accepted', T0 + HOUR)).toBe(true);
    expect(store.offers.setState(a, 'funded', T0 + 2 * HOUR)).toBe(true);
    expect(store.offers.get(a)?.state).toBe('funded');
    expect(store.offers.setState(999, 'funded', T0)).toBe(false);
    expect(() => store.offers.setState(a, 'lost' as 'funded', T0)).toThrow('not an offer state: lost');
    expect(store.offers.listByState(['refused', 'unknown']).map((o) => o.loanRequestId)).toEqual([2, 3]);
    expect(store.offers.listByState([])).toEqual([]);
  });

  it('stores an offer the service already reports accepted as accepted', () => {
    const id = create();
    store.offers.markPlaced(id, serviceOffer(7, 'Accepted'), T0);
    expect(store.offers.get(id)?.state).toBe('accepted');
  });
});

describe('reserved money', () => {
  const expiryMs = 72 * HOUR;

  it('sums automate_fund offers placed or accepted within the expiry, and intents and unknowns until settled', () => {
    const placed = create({ id: 1, totalAmount: '100.00' });
    store.offers.markPlaced(placed, serviceOffer(1), T0);
    const unknown = create({ id: 2, totalAmount: '200.00' });
    store.offers.markUnknown(unknown, 'ECONNRESET', T0);
    const accepted = create({ id: 3, totalAmount: '400.00' });
    store.offers.setState(accepted, 'accepted', T0);
    // An intent left by a crash may have reached the service: it reserves until it is settled.
    create({ id: 5, totalAmount: '2000.00' });
    // These reserve nothing: no automate_fund (unless manual offers reserve), refused, rejected, funded, expired.
    const manual = create({ id: 4, totalAmount: '1000.00', automateFund: false });
    store.offers.markPlaced(manual, serviceOffer(4), T0);
    store.offers.markRefused(create({ id: 6, totalAmount: '3000.00' }), 'no', T0);
    store.offers.setState(create({ id: 7, totalAmount: '4000.00' }), 'rejected', T0);
    store.offers.setState(create({ id: 8, totalAmount: '5000.00' }), 'funded', T0);
    store.offers.setState(create({ id: 9, totalAmount: '6000.00' }), 'expired', T0);

    expect(store.offers.reserved({ nowMs: T0, expiryMs })).toBe(270000);
    expect(store.offers.reserved({ nowMs: T0, expiryMs, includeManual: true })).toBe(370000);
    expect(store.offers.reserved({ nowMs: T0, expiryMs, includeManual: true, exceptOfferId: manual })).toBe(270000);
    // Exactly at the expiry a placed offer still reserves; one millisecond later it does not.
    // The intent and the unknown offer keep reserving whatever their age, until settled.
    expect(store.offers.reserved({ nowMs: T0 + expiryMs, expiryMs })).toBe(270000);
    expect(store.offers.reserved({ nowMs: T0 + expiryMs + 1, expiryMs })).toBe(220000);
    expect(store.offers.reserved({ nowMs: T0, expiryMs, dryRun: true })).toBe(0);
  });

  it('stops reserving once a loan for the request is synced', () => {
    store.offers.setState(create({ id: 3, totalAmount: '400.00' }), 'accepted', T0);
    store.account.upsertLoans([loan(77, 3, 380)], 'current', T0);
    expect(store.offers.reserved({ nowMs: T0, expiryMs })).toBe(0);
  });

  it('keeps reserving an accepted offer funded by hand, listed as a pending loan, until it is funded', () => {
    const manual = create({ id: 4, totalAmount: '500.00', automateFund: false });
    store.offers.setState(manual, 'accepted', T0);
    store.account.upsertLoans([{ ...loan(78, 4, 500), status: 'pending' }], 'current', T0);
    expect(store.offers.reserved({ nowMs: T0, expiryMs, includeManual: true })).toBe(50000);
    store.offers.setState(manual, 'funded', T0);
    expect(store.offers.reserved({ nowMs: T0, expiryMs, includeManual: true })).toBe(0);
  });

  it('forgets pending loans a complete sync no longer lists (an acceptance that expired unfunded)', () => {
    store.account.upsertLoans(
      [{ ...loan(78, 4, 500), status: 'pending' }, { ...loan(79, 5, 500), status: 'pending' }, loan(80, 6, 500)],
      'current',
      T0,
    );
    expect(store.account.forgetUnlistedPending(new Set([79]))).toBe(1);
    expect(store.account.loans().map((stored) => stored.id)).toEqual([79, 80]);
  });

  it('keeps dry-run offers in their own scope', () => {
    store.offers.markPlaced(create({ id: 1, totalAmount: '100.00', dryRun: true }), serviceOffer(1), T0);
    expect(store.offers.reserved({ nowMs: T0, expiryMs, dryRun: true })).toBe(10000);
    expect(store.offers.reserved({ nowMs: T0, expiryMs })).toBe(0);
  });
});

describe('daily totals', () => {
  it('counts every offer but refused ones on the UTC day', () => {
    const day = Date.parse('2026-03-10T00:00:00.000Z');
    create({ id: 1, totalAmount: '100.00', atMs: day - 1 });
    create({ id: 2, totalAmount: '200.00', atMs: day });
    store.offers.markPlaced(create({ id: 3, totalAmount: '300.00', atMs: day + 10 * HOUR }), serviceOffer(3), day);
    store.offers.markRefused(create({ id: 4, totalAmount: '400.00', atMs: day + 11 * HOUR }), 'no', day);
    store.offers.markUnknown(create({ id: 5, totalAmount: '500.00', atMs: day + DAY - 1 }), 'reset', day);
    create({ id: 6, totalAmount: '600.00', atMs: day + DAY });
    create({ id: 7, totalAmount: '700.00', atMs: day + HOUR, dryRun: true });

    expect(store.offers.dailyTotals({ nowMs: day + 12 * HOUR })).toEqual({ offers: 3, amountCents: 100000 });
    expect(store.offers.dailyTotals({ nowMs: day + 12 * HOUR, dryRun: true })).toEqual({ offers: 1, amountCents: 70000 });
    expect(store.offers.dailyTotals({ nowMs: day - 1 })).toEqual({ offers: 1, amountCents: 10000 });
  });
});

describe('open exposure', () => {
  const expiryMs = 72 * HOUR;

  it('adds pending offers, unsynced funded offers and open loans, each once', () => {
    store.offers.markPlaced(create({ id: 1, borrowerId: 10, riskLevel: 0, totalAmount: '100.00' }), serviceOffer(1), T0);
    store.offers.markUnknown(create({ id: 2, borrowerId: 10, riskLevel: 1, totalAmount: '200.00', automateFund: false }), 'x', T0);
    store.offers.setState(create({ id: 3, borrowerId: 11, riskLevel: 2, totalAmount: '400.00' }), 'accepted', T0);
    store.offers.setState(create({ id: 4, borrowerId: 12, riskLevel: 2, totalAmount: '800.00' }), 'funded', T0);
    // Funded, and its loan is synced: the loan counts instead of the offer, at no less than the
    // offer's total (1,000.50 owed < 1,600.00 offered: docs/risk-guard.md, "Exposure").
    store.offers.setState(create({ id: 5, borrowerId: 13, riskLevel: 1, totalAmount: '1600.00' }), 'funded', T0);
    // An intent counts until settled: the POST may have reached the service before a crash.
    create({ id: 9, borrowerId: 10, totalAmount: '3200.00' });
    // Nothing: refused, rejected, expired.
    store.offers.markRefused(create({ id: 6, borrowerId: 10, totalAmount: '3200.00' }), 'no', T0);
    store.offers.setState(create({ id: 7, borrowerId: 10, totalAmount: '3200.00' }), 'rejected', T0);
    store.offers.setState(create({ id: 8, borrowerId: 10, totalAmount: '3200.00' }), 'expired', T0);
    store.account.upsertLoans([loan(50, 5, 1000.5, 1)], 'current', T0);
    // A loan made outside lendbot, for a request the bot saw, in collection.
    store.requests.markSeen(loanRequest({ id: 20, borrowerId: 14, riskLevel: 0 }), 'poll', T0);
    store.account.upsertLoans([loan(51, 20, 50, 0)], 'collection', T0);
    // Paid-off and completed loans are not exposure.
    store.account.upsertLoans([loan(52, 21, 0, 0)], 'completed', T0);
    store.account.upsertLoans([{ ...loan(53, 22, 10, 0), loan_paid_off: true }], 'current', T0);

    const summary = store.exposure.summary({ nowMs: T0, expiryMs });
    expect(summary.totalCents).toBe(10000 + 20000 + 40000 + 80000 + 160000 + 5000 + 320000);
    expect(Object.fromEntries(summary.byBorrowerCents)).toEqual({ 10: 350000, 11: 40000, 12: 80000, 13: 160000, 14: 5000 });
    expect(summary.byRiskLevelCents).toEqual({ 0: 15000, 1: 500000, 2: 120000 });
  });

  it('lets pending offers drop out after the expiry but keeps accepted ones', () => {
    store.offers.markPlaced(create({ id: 1, totalAmount: '100.00' }), serviceOffer(1), T0);
    store.offers.setState(create({ id: 2, totalAmount: '200.00' }), 'accepted', T0);
    expect(store.exposure.summary({ nowMs: T0 + expiryMs + 1, expiryMs }).totalCents).toBe(20000);
  });
});

function loan(id: number, loanRequestId: number, balance: number, riskLevel = 1) {
  return {
    id,
    loan_request_id: loanRequestId,
    borrower_card_color: riskLevel,
    loan_amount: 1500,
    interest_rate: 0.25,
    status: 'funded',
    loan_balance: balance,
    loan_paid_off: false,
  };
}
