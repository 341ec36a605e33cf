import { describe, expect, it } from 'vitest';
import { expectedAnnualReturn, MIN_OFFER_RATE, requiredRate } from '../../src/math/index.js';
import { strategyAt } from './compile-text.js';
import { loanRequest } from './fixtures.js';
import { reasonText } from '../../src/domain/decision-reason.js';

describe('pricing', () => {
  it('offers the rate that reaches the target, rounded up to 0.0001', () => {
    const probability = 1 / (1 + Math.exp(-3));
    const economics = { probability, recovery: 0.2, servicingCost: 0, fundedCents: 105_000, repaidPrincipalCents: 105_000, terms: 12 };
    const required = requiredRate(0.08, economics);
    const decision = strategyAt(3, '  target_return: 0.08').evaluate(loanRequest(), {});
    expect(decision.action).toBe('offer');
    expect(decision.requiredRate).toBeCloseTo(required, 12);
    expect(decision.rate).toBe(Math.ceil(required * 10_000) / 10_000);
    expect(decision.expectedReturn).toBeCloseTo(expectedAnnualReturn(decision.rate ?? 0, economics), 12);
    expect(decision.expectedReturn).toBeGreaterThanOrEqual(0.08);
  });

  it('skips when the required rate is above the max, saying both', () => {
    const decision = strategyAt(0.5, '  target_return: 0.08').evaluate(loanRequest({ max_interest_rate: 0.6 }), {});
    expect(decision.action).toBe('skip');
    expect(decision.reasons.map(reasonText)[1]).toMatch(/^price required_rate 0\.\d+ > max_interest_rate 0\.60$/);
  });

  it('never offers below 0.03', () => {
    const decision = strategyAt(8, '  target_return: 0').evaluate(loanRequest(), {});
    expect(decision.requiredRate).toBeLessThan(0.001);
    expect(decision.rate).toBe(MIN_OFFER_RATE);
  });

  it('keeps the margin within the ceilings', () => {
    const request = loanRequest({ max_interest_rate: 0.4 });
    expect(strategyAt(3, '  target_return: 0.05\n  margin: 0.5').evaluate(request, {}).rate).toBe(0.4);
    expect(strategyAt(3, '  target_return: 0.05\n  margin: 0.5\n  ceiling: 0.3').evaluate(request, {}).rate).toBe(0.3);
    expect(strategyAt(3, '  target_return: 0.05\n  margin: 0.5\n  ceiling_share_of_max: 0.5').evaluate(request, {}).rate).toBe(0.2);
    const skipped = strategyAt(3, '  target_return: 0.3\n  ceiling: 0.25').evaluate(request, {});
    expect(skipped.reasons.map(reasonText)[1]).toMatch(/^price required_rate 0\.\d+ > ceiling 0\.25$/);
  });

  it('never prices above the max or below 0.03 across probabilities, targets and caps', () => {
    for (const logOdds of [-2, 0, 1, 2, 3, 5, 9]) {
      for (const target of [0, 0.05, 0.2, 0.6]) {
        for (const max of [0.03, 0.1, 0.35, 1, 2]) {
          const decision = strategyAt(logOdds, `  target_return: ${target}\n  margin: 0.02`).evaluate(
            loanRequest({ max_interest_rate: max }),
            {},
          );
          if (decision.action !== 'offer') continue;
          expect(decision.rate).toBeGreaterThanOrEqual(MIN_OFFER_RATE);
          expect(decision.rate).toBeLessThanOrEqual(max);
        }
      }
    }
  });

  it('skips when the payment at the offered rate is too much of the income', () => {
    const request = loanRequest({ borrower: { annual_income: 6000 } });
    const decision = strategyAt(3, '  target_return: 0.05\n  max_payment_to_income: 0.1').evaluate(request, {});
    expect(decision.action).toBe('skip');
    expect(decision.reasons.map(reasonText)[1]).toMatch(/^price payment_to_income 0\.\d+ > 0\.10$/);
    const noIncome = loanRequest({ borrower: { annual_income: null } });
    expect(strategyAt(3, '  target_return: 0.05\n  max_payment_to_income: 0.1').evaluate(noIncome, {}).reasons.map(reasonText)[1]).toBe(
      'price payment_to_income unknown (annual_income missing)',
    );
  });

  it('earns more on the loan amount when only it is funded', () => {
    const total = strategyAt(3, '  target_return: 0.08').evaluate(loanRequest(), {});
    const loanOnly = strategyAt(3, '  target_return: 0.08\n  funded_amount: loan_amount').evaluate(loanRequest(), {});
    expect(loanOnly.requiredRate ?? 1).toBeLessThan(total.requiredRate ?? 0);
  });
});
