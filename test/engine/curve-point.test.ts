/**
 * curvePoint computes the expected profit and return from one expected collected amount (one
 * Math.pow instead of two): the numbers must be loan-math's to the last bit, since offers carry
 * them (expectedReturn) and the search compares them.
 */
import { describe, expect, it } from 'vitest';
import { curvePoint, type PriceCurve } from '../../src/engine/pricing/expected-profit.js';
import { DEFAULT_MARKET_RESPONSE } from '../../src/engine/index.js';
import { expectedAnnualReturn, expectedProfitCents, type LoanEconomics } from '../../src/math/index.js';

describe('curvePoint', () => {
  it('equals expectedProfitCents and expectedAnnualReturn exactly', () => {
    let seed = 11;
    const random = (): number => (seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647;
    let compared = 0;
    for (let index = 0; index < 2_000; index += 1) {
      const totalCents = Math.round(5_000 + random() * 3_000_000);
      const economics: LoanEconomics = {
        probability: random(),
        recovery: random() * 0.5,
        servicingCost: random() * 0.05,
        fundedCents: random() < 0.5 ? totalCents : Math.round(totalCents * 0.95),
        repaidPrincipalCents: totalCents,
        terms: 1 + Math.floor(random() * 60),
      };
      const targetReturn = random() * 0.3;
      const cap = 0.03 + random() * 1.9;
      const curve: PriceCurve = {
        economics,
        targetReturn,
        maxInterestRate: cap,
        market: DEFAULT_MARKET_RESPONSE,
        breakEvenRate: 0.03,
        low: 0.03,
        cap,
        capName: 'max_interest_rate',
      };
      const rate = 0.03 + random() * (cap - 0.03);
      const point = curvePoint(curve, rate);
      expect(Object.is(point.profitCents, expectedProfitCents(rate, targetReturn, economics))).toBe(true);
      expect(Object.is(point.expectedReturn, expectedAnnualReturn(rate, economics))).toBe(true);
      expect(Object.is(point.valueCents, point.acceptProbability * point.profitCents)).toBe(true);
      compared += 1;
    }
    expect(compared).toBe(2_000);
  });
});
