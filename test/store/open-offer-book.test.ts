// The guard's figures come from the in-memory open-offer book; they must equal the SQL recount
// after every kind of change (the transfer history too): offers placed, refused, accepted, funded, expired (by state and by
// age), loans synced and forgotten, raw SQL, rolled-back transactions, another connection's
// writes, a restart, and time moving back (a simulated clock).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { offerSchema } from '../../src/domain/index.js';
import { databaseOf, openStore, type OfferState, type Store } from '../../src/store/index.js';
import { openOfferBookOf } from '../../src/store/open-offer-book.js';
import { DAY, HOUR, T0, loanRequest, tempDir } from './fixtures.js';

let dir: { dir: string; cleanup: () => void };
let path: string;
let store: Store;
beforeEach(() => {
  dir = tempDir();
  path = `${dir.dir}/lendbot.db`;
  store = openStore(path);
});
afterEach(() => {
  store.close();
  dir.cleanup();
});

/** A small deterministic generator, so a failure replays the same way. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

function loan(id: number, loanRequestId: number, balance: number, riskLevel: number, paidOff = false) {
  return {
    id,
    loan_request_id: loanRequestId,
    borrower_card_color: riskLevel,
    loan_amount: 1500,
    interest_rate: 0.25,
    status: 'funded',
    loan_balance: balance,
    loan_paid_off: paidOff,
  };
}

/** Every figure the guard and the status report read, from the book and from SQL. */
function figures(current: Store, nowMs: number, exceptOfferId: number) {
  const book = openOfferBookOf(databaseOf(current));
  const both = { book: [] as unknown[], sql: [] as unknown[] };
  for (const dryRun of [false, true]) {
    for (const expiryMs of [72 * HOUR, 20 * HOUR]) {
      const scope = { nowMs, expiryMs, dryRun };
      for (const [name, figures] of [
        ['book', book],
        ['sql', book.recount],
      ] as const) {
        const exposure = figures.exposure(scope);
        both[name].push(
          {
            totalCents: exposure.totalCents,
            byBorrower: [...exposure.byBorrowerCents].sort((a, b) => a[0] - b[0]),
            byRisk: exposure.byRiskLevelCents,
          },
          figures.reserved(scope),
          figures.reserved({ ...scope, includeManual: true }),
          figures.reserved({ ...scope, includeManual: true, exceptOfferId }),
          figures.daily(scope),
        );
      }
    }
  }
  return both;
}

describe('the open-offer book', () => {
  it('equals the SQL recount after every kind of change, over a random history', () => {
    const next = random(14);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
    let now = T0;
    let requestId = 0;
    let loanId = 0;
    const offerIds: number[] = [];
    let nonZero = 0;
    const counts = new Map<string, number>();

    const steps: Record<string, () => void> = {
      intent() {
        requestId += 1;
        const request = loanRequest({
          id: requestId,
          borrowerId: 1 + Math.floor(next() * 6),
          riskLevel: Math.floor(next() * 5),
          totalAmount: `${100 + Math.floor(next() * 900)}.00`,
        });
        const result = store.offers.createIntent({ request, rate: 0.3, automateFund: next() < 0.7, dryRun: next() < 0.2, atMs: now });
        if (result.created) offerIds.push(result.offer.id);
      },
      placed() {
        const id = pick(offerIds);
        if (id !== undefined)
          store.offers.markPlaced(
            id,
            offerSchema.parse({ id: 10_000 + id, offered_interest: 0.3, offer_status: next() < 0.2 ? 'accepted' : 'pending' }),
            now,
          );
      },
      refused() {
        const id = pick(offerIds);
        if (id !== undefined) store.offers.markRefused(id, 'no', now);
      },
      unknown() {
        const id = pick(offerIds);
        if (id !== undefined) store.offers.markUnknown(id, 'timeout', now);
      },
      state() {
        const id = pick(offerIds);
        if (id !== undefined) store.offers.setState(id, pick<OfferState>(['accepted', 'funded', 'rejected', 'expired', 'placed']), now);
      },
      loanForOffer() {
        const id = pick(offerIds);
        const offer = id === undefined ? undefined : store.offers.get(id);
        if (offer !== undefined)
          store.account.upsertLoans(
            [loan(++loanId, offer.loanRequestId, Math.floor(next() * 800), offer.riskLevel, next() < 0.2)],
            pick(['current', 'collection', 'completed'] as const),
            now,
          );
      },
      loanOutside() {
        // A loan made outside lendbot, its request seen before or after the loan is synced.
        requestId += 1;
        const seenFirst = next() < 0.5;
        const request = loanRequest({ id: requestId, borrowerId: 7, riskLevel: 3 });
        if (seenFirst) store.requests.markSeen(request, 'poll', now);
        store.account.upsertLoans([loan(++loanId, requestId, 300, 3)], 'current', now);
        if (!seenFirst) store.requests.markSeen(request, 'poll', now);
      },
      resync() {
        // A sync upserts every loan again, in one statement per loan, inside one transaction.
        const loans = store.account
          .loans()
          .slice(0, 3)
          .map((stored) => ({ ...stored.loan, loan_balance: Math.floor(next() * 500) }));
        store.account.upsertLoans([...loans, loan(++loanId, 99_000 + loanId, 200, 2)], 'current', now);
      },
      transfers() {
        // The balance job replaces the whole history: funding debits for some offers' requests
        // (pending, processed or failed), which end their reservations (book-offer.ts, PAID_OUT_SQL).
        const paid = offerIds.filter(() => next() < 0.3).map((id) => store.offers.get(id)?.loanRequestId);
        const transactions = paid.map((loanRequestId) => ({
          transfer_status: pick(['pending', 'processed', 'failed']),
          transfer_type: 'Fund Loans',
          transfer_amount: '-100.00',
          loan_request_id: loanRequestId,
        }));
        store.account.replaceTransfers([{ date: '2026-03-10', transactions }], now);
      },
      forgetPending() {
        store.account.forgetUnlistedPending(new Set());
      },
      rawSql() {
        const id = pick(offerIds);
        if (id !== undefined) databaseOf(store).prepare("UPDATE offers SET state = 'funded' WHERE id = ?").run(id);
      },
      rolledBack() {
        const id = pick(offerIds);
        if (id === undefined) return;
        const db = databaseOf(store);
        const failing = db.transaction(() => {
          db.prepare("UPDATE offers SET state = 'refused' WHERE id = ?").run(id);
          // Asked inside the transaction: answered by SQL, and the book keeps nothing of it.
          expect(store.exposure.summary({ nowMs: now, expiryMs: 72 * HOUR })).toEqual(
            openOfferBookOf(db).recount.exposure({ nowMs: now, expiryMs: 72 * HOUR }),
          );
          throw new Error('roll back');
        });
        expect(() => failing()).toThrow('roll back');
      },
      otherConnection() {
        const other = openStore(path);
        try {
          const id = pick(offerIds);
          if (id !== undefined) other.offers.setState(id, pick<OfferState>(['placed', 'accepted', 'rejected']), now);
        } finally {
          other.close();
        }
      },
      restart() {
        store.close();
        store = openStore(path);
      },
      time() {
        // Mostly forward (hours, across the expiry and UTC days); sometimes back, as a simulated clock may.
        now += next() < 0.1 ? -Math.floor(next() * 30 * HOUR) : Math.floor(next() * 9 * HOUR);
      },
    };
    const names = Object.keys(steps);
    for (let i = 0; i < 600; i++) {
      const name = i < 40 ? 'intent' : pick(names);
      steps[name]!();
      counts.set(name, (counts.get(name) ?? 0) + 1);
      const { book, sql } = figures(store, now, pick(offerIds) ?? -1);
      expect(book, `after step ${i} (${name})`).toEqual(sql);
      if ((sql[0] as { totalCents: number }).totalCents > 0) nonZero += 1;
    }
    // The history did exercise the figures and every kind of step.
    expect(nonZero).toBeGreaterThan(300);
    expect([...counts.keys()].sort()).toEqual([...names].sort());
  });

  it('follows later writes when first asked inside a transaction that rolled back', () => {
    const db = databaseOf(store);
    const scope = { nowMs: T0, expiryMs: 72 * HOUR };
    const firstQuestion = db.transaction(() => {
      expect(store.exposure.summary(scope).totalCents).toBe(0);
      throw new Error('roll back');
    });
    expect(() => firstQuestion()).toThrow('roll back');
    expect(store.exposure.summary(scope).totalCents).toBe(0);
    store.offers.createIntent({
      request: loanRequest({ id: 1, totalAmount: '100.00' }),
      rate: 0.3,
      automateFund: true,
      dryRun: false,
      atMs: T0,
    });
    expect(store.exposure.summary(scope).totalCents).toBe(10000);
    expect(store.offers.reserved(scope)).toBe(10000);
  });

  it('keeps counting an old pending offer and stops counting expired placed ones', () => {
    const place = (id: number, atMs: number): number => {
      const result = store.offers.createIntent({
        request: loanRequest({ id, totalAmount: '100.00' }),
        rate: 0.3,
        automateFund: true,
        dryRun: false,
        atMs,
      });
      if (!result.created) throw new Error('intent refused');
      return result.offer.id;
    };
    const old = place(1, T0);
    store.offers.setState(old, 'accepted', T0);
    store.offers.markPlaced(
      place(2, T0 + 10 * DAY),
      offerSchema.parse({ id: 2, offered_interest: 0.3, offer_status: 'pending' }),
      T0 + 10 * DAY,
    );
    const expiryMs = 72 * HOUR;
    // Asked first late (a horizon after the old offer), then about the placed one's expiry.
    expect(store.exposure.summary({ nowMs: T0 + 10 * DAY, expiryMs }).totalCents).toBe(20000);
    // The accepted offer is exposure whatever its age, but reserves only within the expiry.
    expect(store.offers.reserved({ nowMs: T0 + 10 * DAY, expiryMs })).toBe(10000);
    expect(store.offers.dailyTotals({ nowMs: T0 + 10 * DAY })).toEqual({ offers: 1, amountCents: 10000 });
    expect(store.exposure.summary({ nowMs: T0 + 13 * DAY + 1, expiryMs }).totalCents).toBe(10000);
    expect(store.offers.reserved({ nowMs: T0 + 13 * DAY + 1, expiryMs })).toBe(0);
    // A synced loan replaces the accepted offer (counted once), at no less than the offer's total.
    store.account.upsertLoans([loan(1, 1, 140, 1)], 'current', T0 + 14 * DAY);
    expect(store.exposure.summary({ nowMs: T0 + 14 * DAY, expiryMs }).totalCents).toBe(14000);
    store.account.upsertLoans([loan(1, 1, 40, 1)], 'current', T0 + 14 * DAY);
    expect(store.exposure.summary({ nowMs: T0 + 14 * DAY, expiryMs }).totalCents).toBe(10000);
  });

  it('asked again later with nothing written between, drops what the expiry or the day passed', () => {
    const expiryMs = 72 * HOUR;
    const offer = (id: number, atMs: number, state: OfferState): void => {
      const result = store.offers.createIntent({
        request: loanRequest({ id, totalAmount: '100.00' }),
        rate: 0.3,
        automateFund: true,
        dryRun: false,
        atMs,
      });
      if (!result.created) throw new Error('intent refused');
      store.offers.setState(result.offer.id, state, atMs);
    };
    offer(1, T0, 'placed');
    offer(2, T0 + HOUR, 'accepted');
    offer(3, T0 + 2 * HOUR, 'intent');
    const ask = (nowMs: number) => ({
      exposure: store.exposure.summary({ nowMs, expiryMs }).totalCents,
      reserved: store.offers.reserved({ nowMs, expiryMs }),
      today: store.offers.dailyTotals({ nowMs }).offers,
    });
    // The same questions, the guard's two in a row, then later and later with no write between.
    expect(ask(T0 + 3 * HOUR)).toEqual({ exposure: 30000, reserved: 30000, today: 3 });
    expect(ask(T0 + 3 * HOUR)).toEqual({ exposure: 30000, reserved: 30000, today: 3 });
    expect(ask(T0 + expiryMs)).toEqual({ exposure: 30000, reserved: 30000, today: expect.any(Number) as number });
    // The placed offer's expiry passed: neither exposure nor a reservation any more.
    expect(ask(T0 + expiryMs + 1)).toMatchObject({ exposure: 20000, reserved: 20000 });
    // The accepted one's too: still exposure (pending), no longer reserved.
    expect(ask(T0 + HOUR + expiryMs + 1)).toMatchObject({ exposure: 20000, reserved: 10000 });
    // Back in time (a simulated clock): everything counts again.
    expect(ask(T0 + 3 * HOUR)).toEqual({ exposure: 30000, reserved: 30000, today: 3 });
    // The next UTC day made none.
    expect(ask(T0 + DAY).today).toBe(0);
    expect(ask(T0 + 3 * HOUR).today).toBe(3);
  });
});
