import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  balanceFromTransfers,
  borrowerLoanHistoryItemSchema,
  loanPaymentSchema,
  loanSchema,
  transferDayGroupSchema,
  type LoanListStatus,
} from '../../src/domain/index.js';
import { collectPages } from '../../src/service/index.js';
import { DAY, HOUR, startFixture, type Fixture } from './sandbox-fixture.js';

let fx: Fixture;
const funded: number[] = [];

beforeAll(async () => {
  fx = await startFixture({ initialBalanceCents: 2_000_000 });
  const { control } = fx.sandbox;
  // Three loans with known fates: repaid, a missed payment (then collection and default), repaid.
  for (const repayProbability of [1, 0, 1]) {
    const request = control.createLoanRequest({
      competitorOffers: 0,
      decisionDelayMs: HOUR,
      repayProbability,
      loanTerms: 6,
      loanAmountCents: 100_000,
    });
    await fx.client.makeOffer(request.id, { offeredInterest: 0.24, automateFund: true });
    funded.push(request.id);
  }
  for (let day = 0; day < 400; day += 10) control.advance(10 * DAY);
});
afterAll(async () => fx.close());

async function allLoans(status: LoanListStatus): Promise<Array<Record<string, unknown>>> {
  const { items, issues } = await collectPages(fx.client.loanPages(status));
  expect(issues).toEqual([]);
  for (const item of items) expect(loanSchema.safeParse(item).success).toBe(true);
  return items;
}

describe('account reads (spec 4.6 to 4.9)', () => {
  it('lists loans by status with consistent figures', async () => {
    const completed = await allLoans('completed');
    const defaulted = await allLoans('default');
    expect(await allLoans('current')).toEqual([]);
    expect(await allLoans('collection')).toEqual([]);
    expect(completed).toHaveLength(2);
    expect(defaulted).toHaveLength(1);
    const [loan] = completed;
    expect(loan).toMatchObject({ status: 'completed', loan_paid_off: true, loan_balance: 0, payment_terms: 6, interest_rate: 0.24 });
    expect(String(loan?.created_date)).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\+00:00$/);
    const bad = defaulted[0];
    expect(Number(bad?.collected_amount)).toBeGreaterThan(0);
    expect(Number(bad?.net_collected)).toBeCloseTo(Number(bad?.collected_amount) - Number(bad?.collection_fee), 2);
  });

  it('lists payments that amortize the loan at its rate', async () => {
    const [loan] = await allLoans('completed');
    const { items, issues } = await fx.client.listLoanPayments(Number(loan?.id));
    expect(issues).toEqual([]);
    expect(items).toHaveLength(6);
    for (const payment of items) expect(loanPaymentSchema.safeParse(payment).success).toBe(true);
    const paid = items.reduce((sum, p) => sum + Math.round(Number(p.payment_amount) * 100), 0);
    // Principal (loan plus fees) and interest at 24%/12 per month on the declining balance.
    let balance = Math.round(Number(loan?.loan_amount) * 100);
    let interest = 0;
    for (const payment of items) {
      const due = Math.round(balance * 0.02);
      interest += due;
      balance = balance + due - Math.round(Number(payment.payment_amount) * 100);
    }
    expect(balance).toBe(0);
    expect(paid).toBe(Math.round(Number(loan?.loan_amount) * 100) + interest);
    expect(Number(loan?.loan_return)).toBeCloseTo(paid / 100, 2);
    const [defaulted] = await allLoans('default');
    const missed = await fx.client.listLoanPayments(Number(defaulted?.id));
    expect(missed.items.map((p) => p.payment_status)).toContain('Missed Payment');
    expect((await fx.client.listLoanPayments(1).catch((e: unknown) => e)) as Error).toHaveProperty('code', 'NOT_FOUND');
  });

  it('has a transfer history that explains the balance', async () => {
    const { items, issues } = await collectPages(fx.client.transferPages());
    expect(issues).toEqual([]);
    for (const group of items) expect(transferDayGroupSchema.safeParse(group).success).toBe(true);
    const summary = balanceFromTransfers(items);
    expect(summary.balanceCents).toBe(fx.sandbox.control.balance().balanceCents);
    const types = new Set(items.flatMap((g) => g.transactions.map((t) => t.transfer_type)));
    expect([...types].sort()).toEqual(['Add Money', 'Collection', 'Fund Loans', 'Monthly Payments']);
    expect(summary.balanceCents).toBeGreaterThan(2_000_000 - 3 * 110_000);
  });

  it('lists a borrower’s completed loans', async () => {
    const request = fx.sandbox.control.createLoanRequest({ completedLoans: 23 });
    const first = await fx.client.listBorrowerLoanHistory(request.id);
    expect(first.count).toBe(23);
    expect(first.items).toHaveLength(20);
    for (const item of first.items) expect(borrowerLoanHistoryItemSchema.safeParse(item).success).toBe(true);
    const { items } = await collectPages(fx.client.borrowerLoanHistoryPages(request.id));
    expect(items).toHaveLength(23);
    expect((await fx.client.listBorrowerLoanHistory(77).catch((e: unknown) => e)) as Error).toHaveProperty('code', 'NOT_FOUND');
  });

  it('gives the ground truth of each funded request', () => {
    const truths = funded.map((id) => fx.sandbox.control.groundTruth(id));
    expect(truths.map((t) => t.outcome.status)).toEqual(['completed', 'default', 'completed']);
    expect(truths[0]?.outcome.repaid_fraction).toBe(1);
    expect(truths[1]?.outcome.repaid_fraction).toBeLessThan(1);
    expect(truths.every((t) => t.fundedBy === 'investor' && t.outcome.funded_rate === 0.24)).toBe(true);
  });
});
