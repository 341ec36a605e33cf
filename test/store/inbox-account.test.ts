import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { balanceFromTransfers, loanPaymentSchema, loanSchema, transferDayGroupSchema } from '../../src/domain/index.js';
import { databaseOf, type Store } from '../../src/store/index.js';
import { T0, tempStore } from './fixtures.js';

let store: Store;
let cleanup: () => void;
beforeEach(() => {
  ({ store, cleanup } = tempStore());
});
afterEach(() => cleanup());

const UUID_A = '0b6f4c2e-3d5a-4e8b-9a71-2f0c6d8e1a01';
const UUID_B = '0b6f4c2e-3d5a-4e8b-9a71-2f0c6d8e1a02';
const UUID_C = '0b6f4c2e-3d5a-4e8b-9a71-2f0c6d8e1a03';
const data = {
  loan_request_id: 7,
  loan_request_amount: 500,
  loan_request_type: 'cash',
  has_banking_data: true,
  automated_loan_request: false,
};

describe('webhook inbox', () => {
  it('inserts an event once and reports duplicates without changing the first', () => {
    expect(store.inbox.insert({ webhookUuid: UUID_A, topic: 'new_loan_request_created', data, receivedAtMs: T0 })).toBe('inserted');
    expect(store.inbox.insert({ webhookUuid: UUID_A, topic: 'other', data: {}, receivedAtMs: T0 + 5 })).toBe('duplicate');
    expect(store.inbox.get(UUID_A)).toEqual({
      seq: 1,
      webhookUuid: UUID_A,
      topic: 'new_loan_request_created',
      data,
      receivedAt: '2026-03-10T12:00:00.000Z',
      processedAt: null,
      outcome: null,
    });
  });

  it('hands out unprocessed events oldest first until marked processed', () => {
    store.inbox.insert({ webhookUuid: UUID_B, topic: 't', data: { n: 2 }, receivedAtMs: T0 + 1 });
    store.inbox.insert({ webhookUuid: UUID_A, topic: 't', data: { n: 1 }, receivedAtMs: T0 });
    store.inbox.insert({ webhookUuid: UUID_C, topic: 'future_topic', data: {}, receivedAtMs: T0, settledOutcome: 'ignored' });
    expect(store.inbox.depth()).toBe(2);
    expect(store.inbox.unprocessed(10).map((e) => e.webhookUuid)).toEqual([UUID_A, UUID_B]);
    expect(store.inbox.unprocessed(1).map((e) => e.webhookUuid)).toEqual([UUID_A]);
    expect(store.inbox.get(UUID_C)).toMatchObject({ processedAt: '2026-03-10T12:00:00.000Z', outcome: 'ignored' });

    expect(store.inbox.markProcessed(UUID_A, 'offered', T0 + 100)).toBe(true);
    expect(store.inbox.markProcessed(UUID_A, 'again', T0 + 200)).toBe(false);
    expect(store.inbox.markProcessed('missing', 'x', T0)).toBe(false);
    expect(store.inbox.get(UUID_A)).toMatchObject({ processedAt: '2026-03-10T12:00:00.100Z', outcome: 'offered' });
    expect(store.inbox.depth()).toBe(1);
  });
});

describe('account', () => {
  const loanA = loanSchema.parse({
    id: 1,
    loan_request_id: 10,
    loan_amount: 500.1,
    interest_rate: 0.2,
    status: 'funded',
    loan_balance: 300.55,
    borrower_card_color: 1,
  });

  it('upserts loans by id and computes what is still owed', () => {
    store.account.upsertLoans([loanA], 'current', T0);
    store.account.upsertLoans([{ ...loanA, loan_balance: 0, loan_paid_off: true, status: 'completed' }], 'completed', T0 + 1);
    store.account.upsertLoans(
      [loanSchema.parse({ id: 2, loan_amount: 100, interest_rate: 0.1, status: 'funded', remaining_debt: 80 })],
      'collection',
      T0,
    );
    const loans = store.account.loans();
    expect(
      loans.map((l) => [l.id, l.listStatus, l.status, l.loanAmountCents, l.remainingCents, l.paidOff, l.riskLevel, l.loanRequestId]),
    ).toEqual([
      [1, 'completed', 'completed', 50010, 0, true, 1, 10],
      [2, 'collection', 'funded', 10000, 8000, false, null, null],
    ]);
    expect(loans[0]?.loan.loan_balance).toBe(0);
  });

  it('upserts payments by id', () => {
    const payment = loanPaymentSchema.parse({
      id: 5,
      loan: 1,
      payment_amount: '91.30',
      payment_due_date: '2026-04-01',
      payment_status: 'Missed Payment',
    });
    store.payments.upsert(
      [payment, { ...payment, id: 4, payment_due_date: '2026-03-01', payment_amount: 91.3, payment_status: 'paid' }],
      T0,
    );
    store.payments.upsert([{ ...payment, payment_status: 'paid' }], T0 + 1);
    expect(store.payments.forLoan(1).map((p) => [p.id, p.payment_status])).toEqual([
      [4, 'paid'],
      [5, 'paid'],
    ]);
    const amounts = databaseOf(store).prepare<[], { amount_cents: number }>('SELECT amount_cents FROM payments ORDER BY id').all();
    expect(amounts).toEqual([{ amount_cents: 9130 }, { amount_cents: 9130 }]);
  });

  it('replaces the transfer history as a whole snapshot, keeping its grouping', () => {
    const first = [
      transferDayGroupSchema.parse({
        date: '2026-03-01',
        transactions: [
          {
            transfer_status: 'processed',
            transfer_type: 'Add Money',
            transfer_amount: '1000.00',
            loan_request_id: null,
            loan_id: null,
            borrower_id: null,
          },
          {
            transfer_status: 'pending',
            transfer_type: 'Fund Loans',
            transfer_amount: '-520.00',
            loan_request_id: 10,
            loan_id: 1,
            borrower_id: 3,
          },
        ],
      }),
      transferDayGroupSchema.parse({
        date: '2026-03-02',
        transactions: [{ transfer_status: 'failed', transfer_type: 'Withdrawal', transfer_amount: '-50.00' }],
      }),
    ];
    store.account.replaceTransfers(first, T0);
    expect(store.account.transferGroups()).toEqual(first);
    expect(balanceFromTransfers(store.account.transferGroups()).availableCents).toBe(48000);

    const second = [first[0]!];
    store.account.replaceTransfers(second, T0 + 1);
    expect(store.account.transferGroups()).toEqual(second);
  });
});
