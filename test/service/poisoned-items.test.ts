/**
 * Issue 24, item 9: one list item with an amount that is not a plain decimal ("1e9", "NaN",
 * "abc", "", more than 2^53 cents) failed the whole page, a RangeError escaping the plausibility
 * refinement. Every such item is left out as an issue naming the item and the field, and the
 * other items of the page are read, in every list the client reads money from.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LOAN_NON_NEGATIVE_AMOUNTS,
  plausibleLoanRequestSchema,
  validateItems,
  type ItemIssue,
  type Page,
  type ValidatedItems,
} from '../../src/service/index.js';
import { startHarness, type Harness } from './client-harness.js';
import { historyItemJson, loanJson, loanRequestJson, paymentJson, transferGroupJson } from './fixtures/resources.js';

/** 2^53 cents is 90,071,992,547,409.92 USD: one cent more is not a safe integer of cents. */
const ABOVE_SAFE_CENTS = '90071992547409.93';
const BAD_TEXTS = ['1e9', 'NaN', 'abc', '', ABOVE_SAFE_CENTS, '99999999999999999999.00'];
/** Loans carry floats: a text is a wrong type, and a number can be too large to count in cents. */
const BAD_FLOATS: unknown[] = [...BAD_TEXTS, Number(ABOVE_SAFE_CENTS), 1e300];

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(async () => {
  await harness.close();
});

const envelope = (results: unknown[]) => ({ status: 200, body: { count: results.length, next: null, previous: null, results } });

/** Five good items around one bad one, at index 3. */
function pageWithOneBad<T>(good: (n: number) => T, bad: T): T[] {
  return [good(1), good(2), good(3), bad, good(5), good(6)];
}

function expectOneIssue(result: ValidatedItems<unknown> | Page<unknown>, path: string, itemId?: number): ItemIssue {
  expect(result.items).toHaveLength(5);
  expect(result.issues).toHaveLength(1);
  const issue = result.issues[0]!;
  expect(issue).toMatchObject({ index: 3, path });
  expect(issue.itemId).toBe(itemId);
  expect(issue.message).not.toBe('');
  return issue;
}

describe('one poisoned loan request leaves the other five readable', () => {
  const fields = [
    'loan_amount',
    'total_amount',
    'total_fees',
    'fee_legislative',
    'fee_extra',
    'fee_svc',
    'crypto_amount',
    'crypto_market_value',
  ];
  for (const field of fields) {
    it(`${field}`, async () => {
      for (const bad of BAD_TEXTS) {
        harness.server.route('GET /api/v3/loan_requests/', () =>
          envelope(pageWithOneBad((n) => loanRequestJson(n), loanRequestJson(4, { [field]: bad }))),
        );
        const page = await harness.client.listLoanRequests();
        const issue = expectOneIssue(page, `$.${field}`, 4);
        expect(issue.message).toBe(
          bad === ABOVE_SAFE_CENTS || bad.startsWith('9999')
            ? `amount out of range (got "${bad}")`
            : `expected a decimal amount such as "1250.00" (got "${bad}")`,
        );
      }
    });
  }

  it('names the field even when the refinement that compares two amounts cannot read one of them', () => {
    // loan_amount unreadable, total_amount fine: the total-below-amount rule must not parse it.
    const { items, issues } = validateItems(plausibleLoanRequestSchema, [loanRequestJson(4, { loan_amount: '1e9' })], 'GET /x');
    expect(items).toEqual([]);
    expect(issues.map((issue) => [issue.path, issue.message])).toEqual([
      ['$.loan_amount', 'expected a decimal amount such as "1250.00" (got "1e9")'],
    ]);
  });
});

describe('one poisoned loan leaves the other five readable', () => {
  const fields = ['loan_amount', ...LOAN_NON_NEGATIVE_AMOUNTS, 'net_collected'];
  for (const field of fields) {
    it(`${field}`, async () => {
      for (const bad of BAD_FLOATS) {
        harness.server.route('GET /api/v3/loans/current_loan/', () =>
          envelope(pageWithOneBad((n) => loanJson(n), loanJson(4, { [field]: bad }))),
        );
        expectOneIssue(await harness.client.listLoans('current'), `$.${field}`, 4);
      }
    });
  }
});

describe('one poisoned payment leaves the other five readable', () => {
  for (const field of ['payment_amount', 'late_payment_fees_amount', 'pay_later_fees']) {
    it(`${field}`, async () => {
      for (const bad of BAD_FLOATS) {
        harness.server.route('GET /api/v3/loans/9/payments/', () => ({
          status: 200,
          body: pageWithOneBad((n) => paymentJson(n), paymentJson(4, { [field]: bad })),
        }));
        expectOneIssue(await harness.client.listLoanPayments(9), `$.${field}`, 4);
      }
    });
  }
});

describe('one poisoned transfer leaves the other days readable', () => {
  it('transfer_amount', async () => {
    for (const bad of BAD_TEXTS) {
      const day = (n: number) => transferGroupJson(`2026-11-0${n}`, [['processed', 'Add Money', '100.00']]);
      const poisoned = transferGroupJson('2026-11-04', [
        ['processed', 'Add Money', '100.00'],
        ['processed', 'Fund Loans', bad],
      ]);
      harness.server.route('GET /api/v3/transfer_history/', () => envelope(pageWithOneBad(day, poisoned)));
      const issue = expectOneIssue(await harness.client.listTransfers(), '$.transactions[1].transfer_amount');
      expect(issue.itemId).toBeUndefined();
    }
  });
});

describe("one poisoned item of a borrower's history leaves the other five readable", () => {
  for (const field of ['loan_amount', 'interest_rate']) {
    it(`${field}`, async () => {
      for (const bad of BAD_TEXTS) {
        harness.server.route('GET /api/v3/loan_requests/7/borrower_loan_history/', () =>
          envelope(pageWithOneBad(() => historyItemJson(), historyItemJson({ [field]: bad }))),
        );
        expectOneIssue(await harness.client.listBorrowerLoanHistory(7), `$.${field}`);
      }
    });
  }
});

describe('a schema that throws on one item', () => {
  it('makes that item an issue, never the failure of the list', async () => {
    const { z } = await import('zod');
    const throwing = z.looseObject({ id: z.number() }).superRefine((item) => {
      if (item.id === 2) throw new RangeError('boom');
    });
    const { items, issues } = validateItems(throwing, [{ id: 1 }, { id: 2 }, { id: 3 }], 'GET /x');
    expect(items.map((item) => item.id)).toEqual([1, 3]);
    expect(issues).toEqual([{ endpoint: 'GET /x', index: 1, itemId: 2, path: '$', message: 'could not be checked: boom' }]);
  });
});
