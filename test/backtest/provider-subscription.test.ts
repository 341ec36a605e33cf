// Provider A's flat monthly price in a backtest: charged in each simulated month with a purchase,
// counted in the data spend, the net and the per-request contributions, and checked, with the
// per-request purchases, against the budget of the strategy that asked (not the account's spend).
import { describe, expect, it } from 'vitest';
import { runBacktest } from '../../src/backtest/run-backtest.js';
import { compileText } from '../engine/compile-text.js';
import { providerA, providerB } from '../engine/fixtures.js';
import { recordingLine } from './recording-fixtures.js';

/** Asks provider A (acme, 200 USD a month) and then B (zeta, 1.50 a request) about every request of 12 months or less. */
const PAID = compileText(
  `priority: 10
filters:
  - { feature: loan_terms, max: 12 }
data:
  monthly_budget: 203
  provider_a: { provider: acme, monthly_price: 200, when_probability: { min: 0, max: 1 } }
  provider_b: { provider: zeta, price_per_request: 1.5, when_probability: { min: 0, max: 1 } }
score:
  logistic:
    intercept: 3
    terms:
      - { feature: provider_a_score, weight: 0.001, missing: 0 }
pricing:
  target_return: 0.05
`,
  'paid.yaml',
  'paid',
);

/** Buys B only, within 3 USD of its own: it decides the longer requests. */
const OTHER = compileText(
  `priority: 20
filters:
  - { feature: loan_terms, min: 13 }
data:
  monthly_budget: 3
  provider_b: { provider: zeta, price_per_request: 1.5, when_probability: { min: 0, max: 1 } }
score:
  logistic:
    intercept: 3
    terms:
      - { feature: credit_score_mid, weight: 0, missing: 0 }
pricing:
  target_return: 0.05
`,
  'other.yaml',
  'other',
);

function line(id: number, seenAt: string, loanTerms = 12) {
  return recordingLine({ id, seenAt, request: { loan_terms: loanTerms }, scores: { acme: providerA(720, id), zeta: providerB(64, id) } });
}

// Offers are made but never settle, so the net is the data spend alone.
const options = { startingBalanceCents: 1_000_000, market: { settle: false }, recordDecisions: true, recordContributions: true } as const;

describe('a flat-priced provider in a backtest', () => {
  it('charges the subscription in each simulated month with a purchase, to the request that started it', () => {
    const lines = [
      line(1, '2026-01-30T10:00:00Z'),
      line(2, '2026-01-31T10:00:00Z'),
      line(3, '2026-02-01T10:00:00Z'),
      line(4, '2026-02-02T10:00:00Z'),
    ];
    const { summary, requestNetCents } = runBacktest(lines, [PAID], options);
    // Two months of 200.00, four provider B scores of 1.50.
    expect(summary.dataSpendCents).toBe(2 * 20_000 + 4 * 150);
    expect(summary.subscriptionCents).toBe(2 * 20_000);
    expect(summary.netCents).toBe(-summary.dataSpendCents);
    expect(requestNetCents).toEqual([-20_150, -150, -20_150, -150]);
    expect(requestNetCents.reduce((sum, cents) => sum + cents, 0)).toBe(summary.netCents);
  });

  it("checks each strategy's own month: one spent its budget, the other keeps buying", () => {
    const lines = [
      line(1, '2026-01-05T10:00:00Z'), // paid: 200.00 + 1.50
      line(2, '2026-01-05T11:00:00Z', 24), // other: 1.50 of its 3.00
      line(3, '2026-01-05T12:00:00Z'), // paid: 203.00, its budget
      line(4, '2026-01-05T13:00:00Z'), // paid: B refused
      line(5, '2026-01-05T14:00:00Z', 24), // other: 3.00, though the account spent 206.00
      line(6, '2026-02-01T10:00:00Z'), // a new month: paid subscribes and buys again
    ];
    const { summary, decisions } = runBacktest(lines, [PAID, OTHER], options);
    const reasons = (id: number) => decisions.find((decision) => decision.loan_request_id === id)?.reasons ?? [];
    expect(reasons(4)).toContain('data budget 203.00 + 1.50 > 203.00 for zeta');
    expect(reasons(5).filter((reason) => reason.startsWith('data budget'))).toEqual([]);
    expect(reasons(6).filter((reason) => reason.startsWith('data budget'))).toEqual([]);
    expect(summary.dataSpendCents).toBe(20_000 + 150 + 150 + 150 + 150 + 20_000 + 150);
  });

  it('does not subscribe when the budget cannot pay the month, and says so', () => {
    const small = compileText(
      `data:
  monthly_budget: 100
  provider_a: { provider: acme, monthly_price: 200, when_probability: { min: 0, max: 1 } }
score:
  logistic:
    intercept: 3
    terms:
      - { feature: provider_a_score, weight: 0.001, missing: 0 }
pricing:
  target_return: 0.05
`,
    );
    const { summary, decisions } = runBacktest([line(1, '2026-01-05T10:00:00Z')], [small], options);
    expect(decisions[0]?.reasons).toContain('data budget 0.00 + 200.00 > 100.00 for acme (monthly subscription)');
    expect(summary.dataSpendCents).toBe(0);
  });

  it('charges nothing for a month whose calls found no score (a 404 is not billed)', () => {
    const bare = recordingLine({ id: 1, seenAt: '2026-01-05T10:00:00Z' });
    const { summary } = runBacktest([bare], [PAID], options);
    expect(summary.dataSpendCents).toBe(0);
  });
});
