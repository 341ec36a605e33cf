// The payments repository on a real SQLite file: idempotent upserts, flags that are raised once
// and never lowered, the per-loan summary, and which loans are due a payments read.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loanPaymentSchema, loanSchema, type LoanPayment } from '../../src/domain/index.js';
import { databaseOf, openDatabase, openStore, MIGRATIONS, type Store } from '../../src/store/index.js';
import { DAY, HOUR, T0, tempDir, tempStore } from './fixtures.js';
import { join } from 'node:path';

let h: ReturnType<typeof tempStore>;
let store: Store;
beforeEach(() => {
  h = tempStore();
  store = h.store;
});
afterEach(() => h.cleanup());

function payment(fields: Partial<LoanPayment> & { id: number }): LoanPayment {
  return loanPaymentSchema.parse({
    loan: 1,
    payment_amount: '91.30',
    payment_due_date: '2026-04-01',
    payment_status: 'pending',
    ...fields,
  });
}

const loan = (id: number, status = 'funded', extra: Record<string, unknown> = {}) =>
  loanSchema.parse({ id, loan_amount: 500, interest_rate: 0.2, status, ...extra });

describe('payments repository', () => {
  it('keeps one row per payment and updates it when its state changes', () => {
    const due = payment({ id: 7 });
    expect(store.payments.upsert([due, payment({ id: 8, payment_due_date: '2026-05-01' })], T0)).toEqual({
      inserted: 2,
      updated: 0,
      unchanged: 0,
      newlyFlagged: 0,
    });
    expect(store.payments.upsert([due], T0 + 1)).toEqual({ inserted: 0, updated: 0, unchanged: 1, newlyFlagged: 0 });
    expect(store.payments.upsert([{ ...due, payment_status: 'paid' }], T0 + 2)).toEqual({
      inserted: 0,
      updated: 1,
      unchanged: 0,
      newlyFlagged: 0,
    });
    expect(store.payments.forLoan(1).map((p) => [p.id, p.payment_status])).toEqual([
      [7, 'paid'],
      [8, 'pending'],
    ]);
  });

  it('raises a flag once, never lowers it, and numbers only the news', () => {
    const late = payment({ id: 1, is_late_payment: true, delayed_days_count: 3, late_payment_fees_amount: 15 });
    expect(store.payments.upsert([late], T0).newlyFlagged).toBe(1);
    expect(store.payments.upsert([{ ...late, delayed_days_count: 4 }], T0 + HOUR).newlyFlagged).toBe(0);
    expect(store.payments.upsert([{ ...late, delayed_days_count: 5, payment_status: 'paid' }], T0 + DAY).newlyFlagged).toBe(0);
    expect(store.payments.flaggedAfter(0, 10).map((f) => [f.seq, f.flag, f.payment.payment_status])).toEqual([[1, 'late', 'paid']]);
    // Late, then missed: told again, as missed.
    const missed = payment({ id: 2, payment_due_date: '2026-05-01', is_late_payment: true });
    store.payments.upsert([missed], T0);
    expect(store.payments.upsert([{ ...missed, payment_status: 'Missed Payment' }], T0 + DAY).newlyFlagged).toBe(1);
    expect(store.payments.flaggedAfter(1, 10).map((f) => [f.seq, f.flag, f.payment.id])).toEqual([[3, 'missed', 2]]);
    expect(store.payments.lastFlagSeq()).toBe(3);
    expect(store.payments.stateOfLoan(1)).toEqual({
      loanId: 1,
      payments: 2,
      paid: 1,
      paidCents: 9130,
      late: 1,
      missed: 1,
      maxDelayedDays: 5,
      feesCents: 1500,
      lastDueDate: '2026-05-01',
    });
  });

  it('counts but does not number what a first read finds, nor a late payment already paid', () => {
    const result = store.payments.upsert(
      [payment({ id: 1, payment_status: 'Missed Payment' }), payment({ id: 2, is_late_payment: true })],
      T0,
      { news: false },
    );
    expect(result.newlyFlagged).toBe(0);
    expect(
      store.payments.upsert([payment({ id: 3, payment_status: 'paid', delayed_days_count: 2, pay_later_fees: 1.25 })], T0).newlyFlagged,
    ).toBe(0);
    expect(store.payments.lastFlagSeq()).toBe(0);
    expect(store.payments.totals()).toEqual({
      loans: 1,
      payments: 3,
      paid: 1,
      paidCents: 9130,
      late: 2,
      missed: 1,
      maxDelayedDays: 2,
      feesCents: 125,
    });
  });

  it('sums nothing when nothing is synced', () => {
    expect(store.payments.totals()).toEqual({
      loans: 0,
      payments: 0,
      paid: 0,
      paidCents: 0,
      late: 0,
      missed: 0,
      maxDelayedDays: 0,
      feesCents: 0,
    });
    expect(store.payments.stateOfLoan(1)).toBeUndefined();
  });

  it('picks loans never read or moved first, then those due, and never pending ones', () => {
    store.account.upsertLoans([loan(1), loan(2), loan(3, 'pending')], 'current', T0);
    store.account.upsertLoans([loan(4, 'completed')], 'completed', T0);
    const due = (atMs: number) => store.payments.dueForRead(atMs, 10).map((l) => [l.loanId, l.readBefore]);
    expect(due(T0)).toEqual([
      [1, false],
      [2, false],
      [4, false],
    ]);
    store.payments.recordRead({ loanId: 1, listStatus: 'current', loanStatus: 'funded', atMs: T0, nextAtMs: T0 + DAY });
    store.payments.recordRead({ loanId: 2, listStatus: 'current', loanStatus: 'funded', atMs: T0, nextAtMs: T0 + HOUR });
    store.payments.recordRead({ loanId: 4, listStatus: 'completed', loanStatus: 'completed', atMs: T0, nextAtMs: null });
    expect(due(T0 + 1)).toEqual([]);
    expect(due(T0 + DAY)).toEqual([
      [2, true],
      [1, true],
    ]);
    // Loan 1 moves to collection: read at once, before the merely due.
    store.account.upsertLoans([loan(1, 'funded')], 'collection', T0 + 2);
    expect(due(T0 + HOUR)).toEqual([
      [1, true],
      [2, true],
    ]);
    expect(store.payments.dueForRead(T0 + HOUR, 1).map((l) => l.loanId)).toEqual([1]);
  });

  it('tells an overdue payment that is neither paid nor missed', () => {
    store.payments.upsert([payment({ id: 1, payment_due_date: '2026-03-10' }), payment({ id: 2, payment_due_date: '2026-04-10' })], T0);
    expect(store.payments.hasOverdueUnsettled(1, '2026-03-09')).toBe(false);
    expect(store.payments.hasOverdueUnsettled(1, '2026-03-10')).toBe(true);
    store.payments.upsert([payment({ id: 1, payment_due_date: '2026-03-10', payment_status: 'paid' })], T0);
    expect(store.payments.hasOverdueUnsettled(1, '2026-03-20')).toBe(false);
  });
});

describe('migration 5', () => {
  it('keeps payments stored by an older lendbot, with the new columns at their defaults', () => {
    const { dir, cleanup } = tempDir();
    try {
      const path = join(dir, 'old.db');
      const old = openDatabase(
        path,
        MIGRATIONS.filter((step) => step.version <= 3),
      );
      old
        .prepare(
          "INSERT INTO payments (id, loan_id, amount_cents, due_date, status, raw_json, synced_at) VALUES (1, 9, 9130, '2026-03-01', 'paid', '{}', '2026-03-02T00:00:00.000Z')",
        )
        .run();
      old.close();
      const upgraded = openStore(path);
      try {
        expect(databaseOf(upgraded).prepare('SELECT id, is_late, delayed_days, fees_cents, flag, flag_seq FROM payments').all()).toEqual([
          { id: 1, is_late: 0, delayed_days: 0, fees_cents: 0, flag: null, flag_seq: null },
        ]);
        expect(upgraded.payments.stateOfLoan(9)).toMatchObject({ payments: 1, paid: 1, paidCents: 9130, late: 0, missed: 0, feesCents: 0 });
      } finally {
        upgraded.close();
      }
    } finally {
      cleanup();
    }
  });
});
