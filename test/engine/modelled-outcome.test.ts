// The modelled outcome an offer decision carries (Decision.modelled), which a dry run's paper book
// sums: P(accept) under the market response the strategy prices with, and the profit either way.
import { describe, expect, it } from 'vitest';
import { curvePoint } from '../../src/engine/pricing/expected-profit.js';
import { DEFAULT_MARKET_RESPONSE, expectedAcceptProbability } from '../../src/engine/index.js';
import { paymentFactor } from '../../src/math/index.js';
import { compileText, strategyAt } from './compile-text.js';
import { loanRequest } from './fixtures.js';

describe('modelled outcome of an offer', () => {
  it('cost_plus: the default market response read at the rate, and the profit repaid or defaulted', () => {
    const request = loanRequest({ max_interest_rate: 0.5 });
    const decision = strategyAt(3, '  target_return: 0.08\n  recovery: 0.2\n  servicing_cost: 0.01').evaluate(request, {});
    expect(decision.action).toBe('offer');
    const rate = decision.rate!;
    const probability = decision.probability!;
    const total = Math.round(Number(request.total_amount) * 100);
    const due = total * paymentFactor(rate, request.loan_terms) * request.loan_terms * 0.99;
    expect(decision.modelled?.acceptProbability).toBeCloseTo(
      expectedAcceptProbability(rate, 0.5, 1 - probability, DEFAULT_MARKET_RESPONSE),
      12,
    );
    expect(decision.modelled?.repaidProfitCents).toBeCloseTo(due - total, 6);
    expect(decision.modelled?.defaultProfitCents).toBeCloseTo(due * 0.2 - total, 6);
  });

  it("expected_profit: the search's own P(accept), under the strategy's market", () => {
    const market = '  market:\n    take_up: { midpoint: 0.4, steepness: 9 }\n    competition: { share: 0.2 }';
    const decision = strategyAt(3, `  mode: expected_profit\n  target_return: 0.05\n${market}`).evaluate(
      loanRequest({ max_interest_rate: 0.5 }),
      {},
    );
    expect(decision.action).toBe('offer');
    const curve = decision.priceCurve!;
    expect(curve.market.takeUp).toEqual({ midpoint: 0.4, steepness: 9 });
    expect(decision.modelled?.acceptProbability).toBe(curvePoint(curve, decision.rate!).acceptProbability);
    expect(decision.modelled?.acceptProbability).not.toBeCloseTo(
      expectedAcceptProbability(decision.rate!, 0.5, 1 - decision.probability!, DEFAULT_MARKET_RESPONSE),
      3,
    );
  });

  it('max_rate without a score: nothing modelled', () => {
    const decision = compileText('data: { banking_data: never }\npricing:\n  mode: max_rate\n  target_return: 0.05').evaluate(
      loanRequest(),
      {},
    );
    expect(decision.action).toBe('offer');
    expect(decision.modelled).toBeUndefined();
  });
});
