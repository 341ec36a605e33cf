import { describe, expect, it } from 'vitest';
import { loanRequestSchema } from '../../src/domain/index.js';
import {
  creditScoreProblem,
  plausibleBorrowerLoanHistoryItemSchema,
  plausibleLoanRequestSchema,
  plausibleLoanSchema,
  validateItems,
  type ItemIssue,
} from '../../src/service/index.js';
import { loanRequestJson } from './fixtures/resources.js';

const ENDPOINT = 'GET /api/v3/loan_requests/';

/** The issue of one loan request with `overrides`, or undefined when it passes. */
function loanRequestIssue(overrides: Record<string, unknown>): Omit<ItemIssue, 'endpoint' | 'index'> | undefined {
  const { issues } = validateItems(plausibleLoanRequestSchema, [loanRequestJson(7, overrides)], ENDPOINT);
  const issue = issues[0];
  if (issue === undefined) return undefined;
  const { endpoint: _endpoint, index: _index, ...rest } = issue;
  return rest;
}

function withCreditScore(creditScore: unknown): Record<string, unknown> {
  return { borrower: { ...(loanRequestJson(7).borrower as object), credit_score: creditScore } };
}

describe('plausible loan requests', () => {
  it('pass the spec-shaped fixture', () => {
    expect(loanRequestIssue({})).toBeUndefined();
  });

  it('leave out a non-positive loan amount', () => {
    expect(loanRequestIssue({ loan_amount: '-300.00' })).toEqual({
      itemId: 7,
      path: '$.loan_amount',
      message: 'amount must be positive (got "-300.00")',
    });
    expect(loanRequestIssue({ loan_amount: '0' })).toEqual({
      itemId: 7,
      path: '$.loan_amount',
      message: 'amount must be positive (got "0")',
    });
  });

  it('leave out a non-positive total amount', () => {
    expect(loanRequestIssue({ total_amount: '0.00' })).toEqual({
      itemId: 7,
      path: '$.total_amount',
      message: 'amount must be positive (got "0.00")',
    });
  });

  it('leave out money with more than two decimals', () => {
    expect(loanRequestIssue({ loan_amount: '300.001' })).toEqual({
      itemId: 7,
      path: '$.loan_amount',
      message: 'amount has 3 decimals, at most 2 allowed (got "300.001")',
    });
    expect(loanRequestIssue({ total_fees: '35.005' })).toEqual({
      itemId: 7,
      path: '$.total_fees',
      message: 'amount has 3 decimals, at most 2 allowed (got "35.005")',
    });
    expect(loanRequestIssue({ loan_amount: '500', total_amount: '535.5' })).toBeUndefined();
  });

  it('leave out a total below the amount', () => {
    expect(loanRequestIssue({ total_amount: '499.99' })).toEqual({
      itemId: 7,
      path: '$.total_amount',
      message: 'total 499.99 is below the loan amount 500.00',
    });
    expect(loanRequestIssue({ total_amount: '500.00', total_fees: '0.00' })).toBeUndefined();
  });

  it('leave out a max interest rate outside 0.03 to 2.0', () => {
    expect(loanRequestIssue({ max_interest_rate: 5.0 })).toEqual({
      itemId: 7,
      path: '$.max_interest_rate',
      message: 'rate must be between 0.03 and 2 (got 5)',
    });
    expect(loanRequestIssue({ max_interest_rate: 0.0299 })).toMatchObject({ path: '$.max_interest_rate' });
    expect(loanRequestIssue({ max_interest_rate: 0.03 })).toBeUndefined();
    expect(loanRequestIssue({ max_interest_rate: 2.0 })).toBeUndefined();
  });

  it('leave out a credit score range that is not plausible', () => {
    expect(loanRequestIssue(withCreditScore('900-99999'))).toEqual({
      itemId: 7,
      path: '$.borrower.credit_score',
      message: 'credit score outside 300 to 850 (got "900-99999")',
    });
    expect(loanRequestIssue(withCreditScore('700-650'))).toMatchObject({ message: 'credit score range runs backwards (got "700-650")' });
    expect(loanRequestIssue(withCreditScore('250-299'))).toMatchObject({ message: 'credit score outside 300 to 850 (got "250-299")' });
    expect(loanRequestIssue(withCreditScore('600-650-700'))).toMatchObject({
      message: 'credit score range has 3 numbers (got "600-650-700")',
    });
  });

  it('keep credit score texts that are plausible or say the score is unknown', () => {
    for (const text of ['300-850', '800-849', '800+', '<580', 'below 580', '720', 'N/A', null]) {
      expect(loanRequestIssue(withCreditScore(text))).toBeUndefined();
    }
    expect(creditScoreProblem('650-700')).toBeUndefined();
  });

  it('report every problem of an item, the first by path', () => {
    expect(loanRequestIssue({ loan_amount: '-1.00', max_interest_rate: 9 })).toEqual({
      itemId: 7,
      path: '$.loan_amount',
      message: 'amount must be positive (got "-1.00") (and 1 more)',
    });
  });

  it('leave the shape schema as it was, for recordings and fixtures', () => {
    expect(loanRequestSchema.safeParse(loanRequestJson(7, { max_interest_rate: 5 })).success).toBe(true);
  });
});

describe('plausible loans and history items', () => {
  const loan = (overrides: Record<string, unknown>) => ({ id: 3, loan_amount: 500.1, interest_rate: 0.2, status: 'current', ...overrides });

  it('leave out loans with a non-positive or sub-cent amount, or a rate outside 0.03 to 2.0', () => {
    const { items, issues } = validateItems(
      plausibleLoanSchema,
      [loan({}), loan({ id: 4, loan_amount: -5 }), loan({ id: 5, loan_amount: 500.001 }), loan({ id: 6, interest_rate: 2.5 })],
      'GET /api/v3/loans/current_loan/',
    );
    expect(items.map((item) => item.id)).toEqual([3]);
    expect(issues.map(({ itemId, path, message }) => ({ itemId, path, message }))).toEqual([
      { itemId: 4, path: '$.loan_amount', message: 'amount must be positive (got -5)' },
      { itemId: 5, path: '$.loan_amount', message: 'amount has more than 2 decimals (got 500.001)' },
      { itemId: 6, path: '$.interest_rate', message: 'rate must be between 0.03 and 2 (got 2.5)' },
    ]);
  });

  it('leave out history items with a bad amount or rate', () => {
    const item = (loanAmount: string, rate: string) => ({
      borrower_card_color: 1,
      loan_amount: loanAmount,
      payment_terms: 6,
      interest_rate: rate,
    });
    const { items, issues } = validateItems(
      plausibleBorrowerLoanHistoryItemSchema,
      [item('500.00', '0.2400'), item('0.00', '0.24'), item('500.00', '3.00')],
      'GET /api/v3/loan_requests/7/borrower_loan_history/',
    );
    expect(items).toHaveLength(1);
    expect(issues.map(({ index, path, message }) => ({ index, path, message }))).toEqual([
      { index: 1, path: '$.loan_amount', message: 'amount must be positive (got "0.00")' },
      { index: 2, path: '$.interest_rate', message: 'rate must be between 0.03 and 2 (got 3)' },
    ]);
  });
});
