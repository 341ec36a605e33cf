import { describe, expect, it } from 'vitest';
import {
  collectedShare,
  expectedCollectedCents,
  expectedProfitCents,
  hurdleCents,
  expectedAnnualReturn,
  monthlyPayment,
  paymentFactor,
  rateForPaymentFactor,
  requiredRate,
  totalRepayment,
  type LoanEconomics,
} from '../../src/math/index.js';

describe('loan arithmetic', () => {
  it('amortizes monthly: 1000.00 at 12% a year over 12 months is 88.85 a month', () => {
    // i = 0.01; 1000 * 0.01 / (1 - 1.01^-12) = 88.8488
    expect(paymentFactor(0.12, 12)).toBeCloseTo(0.0888488, 7);
    expect(monthlyPayment(100_000, 0.12, 12)).toBe(8885);
    expect(totalRepayment(100_000, 0.12, 12)).toBe(106_620);
  });

  it('divides evenly at a zero rate', () => {
    expect(paymentFactor(0, 10)).toBe(0.1);
    expect(monthlyPayment(100_000, 0, 10)).toBe(10_000);
  });

  it('inverts the payment factor', () => {
    for (const rate of [0.03, 0.12, 0.6, 1.5, 2]) {
      expect(rateForPaymentFactor(paymentFactor(rate, 18), 18)).toBeCloseTo(rate, 10);
    }
    expect(rateForPaymentFactor(1 / 12, 12)).toBe(0);
  });

  const economics: LoanEconomics = {
    probability: 0.95,
    recovery: 0.2,
    servicingCost: 0,
    fundedCents: 100_000,
    repaidPrincipalCents: 100_000,
    terms: 12,
  };

  it('computes the expected annual return by hand', () => {
    // total due per unit 12 * 0.0888488 = 1.0661856; collected share 0.95 + 0.05 * 0.2 = 0.96
    // (1.0661856 * 0.96 - 1) * 12 / 12 = 0.0235382
    expect(expectedAnnualReturn(0.12, economics)).toBeCloseTo(0.0235382, 6);
  });

  it('finds the rate that exactly reaches the target', () => {
    const rate = requiredRate(0.08, economics);
    expect(expectedAnnualReturn(rate, economics)).toBeCloseTo(0.08, 9);
    expect(rate).toBeGreaterThan(0.12);
  });

  it('needs no interest when the target is already met, and no rate can help when nothing comes back', () => {
    expect(requiredRate(-0.5, economics)).toBe(0);
    expect(requiredRate(0.08, { ...economics, probability: 0, recovery: 0 })).toBe(Number.POSITIVE_INFINITY);
  });

  it('computes the hurdle and the expected profit above it by hand', () => {
    // hurdle: 100000 * (1 + 0.08 * 12 / 12) = 108000 cents; collected at 0.12:
    // 100000 * 1.0661856 * 0.96 = 102353.8 cents, so the profit above the hurdle is -5646.2
    expect(hurdleCents(0.08, economics)).toBeCloseTo(108_000, 9);
    expect(hurdleCents(0.08, { ...economics, terms: 36 })).toBeCloseTo(124_000, 9);
    expect(expectedCollectedCents(0.12, economics)).toBeCloseTo(102_353.8, 0);
    expect(expectedProfitCents(0.12, 0.08, economics)).toBeCloseTo(-5_646.2, 0);
    expect(collectedShare(economics)).toBeCloseTo(0.96, 12);
  });

  it('breaks even above the hurdle exactly at the required rate', () => {
    for (const target of [0, 0.08, 0.3]) {
      const rate = requiredRate(target, economics);
      expect(expectedProfitCents(rate, target, economics)).toBeCloseTo(0, 6);
      expect(expectedProfitCents(rate + 0.01, target, economics)).toBeGreaterThan(0);
    }
  });

  it('inverts the payment factor as 64 halvings of [0, 50] did, on random factors and terms', () => {
    // The bisection the Newton solver replaced, kept here as the reference.
    const bisect = (factor: number, terms: number): number => {
      let low = 0;
      let high = 50;
      for (let step = 0; step < 64; step += 1) {
        const middle = (low + high) / 2;
        if (paymentFactor(middle, terms) < factor) low = middle;
        else high = middle;
      }
      return high;
    };
    let state = 14;
    const random = (): number => {
      state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
      return state / 2 ** 32;
    };
    for (let trial = 0; trial < 2_000; trial += 1) {
      const terms = [1, 3, 6, 12, 18, 24, 36, 60, 120][trial % 9] ?? 12;
      const factor = paymentFactor(0.001 + random() * (trial % 2 === 0 ? 0.5 : 2.5), terms);
      const solved = rateForPaymentFactor(factor, terms);
      expect(Math.abs(solved - bisect(factor, terms)) / solved, `factor ${factor}, terms ${terms}`).toBeLessThan(1e-7);
      expect(Math.ceil(solved * 10_000 - 1e-9)).toBe(Math.ceil(bisect(factor, terms) * 10_000 - 1e-9));
    }
    expect(rateForPaymentFactor(paymentFactor(50, 12) * 1.001, 12)).toBe(Number.POSITIVE_INFINITY);
  });
});
