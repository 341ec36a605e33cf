/**
 * Issue 24, item 2 (the client's part): one synced loan at loan_balance -100,000 made exposure
 * -100,000.00 and lifted the exposure cap. Money a loan states that cannot be right is left out at
 * the edge as an item issue naming the loan and the field, like other implausible data.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatItemIssue, LOAN_NON_NEGATIVE_AMOUNTS, loanOwedCeiling } from '../../src/service/index.js';
import { startHarness, type Harness } from './client-harness.js';
import { loanJson } from './fixtures/resources.js';

const PATH = '/api/v3/loans/current_loan/';

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(async () => {
  await harness.close();
});

/** The issues of a page holding a good loan (id 1) and `bad` (id 2). */
async function issuesOf(bad: Record<string, unknown>): Promise<string[]> {
  harness.server.route(`GET ${PATH}`, () => ({
    status: 200,
    body: { count: 2, next: null, previous: null, results: [loanJson(1), loanJson(2, bad)] },
  }));
  const page = await harness.client.listLoans('current');
  expect(page.items.map((loan) => loan.id)).toEqual(page.issues.length > 0 ? [1] : [1, 2]);
  return page.issues.map(formatItemIssue);
}

describe('loans whose money cannot be right are left out', () => {
  it('keeps the spec-shaped loan and one on its last cent of interest', async () => {
    // 535.00 at 0.6 a year over 6 months owes at most 535 * 1.3 = 695.50, plus 7 cents of rounding.
    expect(loanOwedCeiling({ loan_amount: 535, interest_rate: 0.6, payment_terms: 6 })).toBeCloseTo(695.57, 6);
    expect(await issuesOf({})).toEqual([]);
    expect(await issuesOf({ loan_balance: 695.57, remaining_debt: 598.13 })).toEqual([]);
  });

  for (const field of LOAN_NON_NEGATIVE_AMOUNTS) {
    it(`a negative ${field}`, async () => {
      expect(await issuesOf({ [field]: -100_000 })).toEqual([
        `GET ${PATH}: item 1 (id 2) left out: $.${field}: amount must not be negative (got -100000)`,
      ]);
    });
  }

  it('a negative loan_amount', async () => {
    expect(await issuesOf({ loan_amount: -100_000 })).toEqual([
      `GET ${PATH}: item 1 (id 2) left out: $.loan_amount: amount must be positive (got -100000)`,
    ]);
  });

  it('a remaining debt above the original debt', async () => {
    expect(await issuesOf({ remaining_debt: 600, original_debt: 598.13 })).toEqual([
      `GET ${PATH}: item 1 (id 2) left out: $.remaining_debt: remaining debt 600 is above the original debt 598.13`,
    ]);
  });

  it('a balance or remaining debt above what the loan can owe', async () => {
    const most = '(535 at 0.6 a year over 6 months: at most 695.57)';
    expect(await issuesOf({ loan_balance: 695.58 })).toEqual([
      `GET ${PATH}: item 1 (id 2) left out: $.loan_balance: amount 695.58 is above what the loan can owe ${most}`,
    ]);
    expect(await issuesOf({ remaining_debt: 100_000, original_debt: 100_000 })).toEqual([
      `GET ${PATH}: item 1 (id 2) left out: $.remaining_debt: amount 100000 is above what the loan can owe ${most}`,
    ]);
  });

  it('without a term, a balance is bounded by the original debt only', async () => {
    expect(await issuesOf({ payment_terms: undefined, loan_balance: 5000, remaining_debt: 500 })).toEqual([]);
    expect(await issuesOf({ payment_terms: undefined, remaining_debt: 5000 })).toEqual([
      `GET ${PATH}: item 1 (id 2) left out: $.remaining_debt: remaining debt 5000 is above the original debt 598.13`,
    ]);
  });

  it('keeps a negative net_collected (a collection fee above what was collected)', async () => {
    expect(await issuesOf({ collected_amount: 10, collection_fee: 15, net_collected: -5 })).toEqual([]);
  });
});
