import { describe, expect, it } from 'vitest';
import { fitLogistic, gradient, predictRows } from '../../../src/backtest/train/index.js';

// The hours-studied example of the Wikipedia article "Logistic regression": 20 students, the
// maximum-likelihood fit is intercept −4.0777, slope 1.5046 (per hour).
const HOURS = [0.5, 0.75, 1, 1.25, 1.5, 1.75, 1.75, 2, 2.25, 2.5, 2.75, 3, 3.25, 3.5, 4, 4.25, 4.5, 4.75, 5, 5.5];
const PASSED = [0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 1, 1, 1, 1, 1];

const logit = (p: number): number => Math.log(p / (1 - p));

describe('fitLogistic', () => {
  it('matches the published maximum-likelihood answer, where the gradient is zero', () => {
    const rows = HOURS.map((h) => [1, h]);
    const fit = fitLogistic(rows, PASSED, { l2: 0 });
    expect(fit.converged).toBe(true);
    expect(fit.weights[0]).toBeCloseTo(-4.0777, 3);
    expect(fit.weights[1]).toBeCloseTo(1.5046, 3);
    for (const g of gradient(rows, PASSED, fit.weights, 0, [0, 0])) expect(Math.abs(g)).toBeLessThan(1e-8);
  });

  it('matches the closed form for one yes/no feature: the two groups’ log-odds', () => {
    // x = 0: 3 of 10 repaid; x = 1: 8 of 10 repaid.
    const x = [...new Array<number>(10).fill(0), ...new Array<number>(10).fill(1)];
    const y = [1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0];
    const fit = fitLogistic(
      x.map((v) => [1, v]),
      y,
      { l2: 0 },
    );
    expect(fit.weights[0]).toBeCloseTo(logit(0.3), 8);
    expect(fit.weights[1]).toBeCloseTo(logit(0.8) - logit(0.3), 8);
  });

  it('with an L2 penalty: the penalised gradient is zero, the slope shrinks, the intercept is free', () => {
    const rows = HOURS.map((h) => [1, h]);
    const plain = fitLogistic(rows, PASSED, { l2: 0 });
    const penalised = fitLogistic(rows, PASSED, { l2: 5 });
    for (const g of gradient(rows, PASSED, penalised.weights, 5, [0, 1])) expect(Math.abs(g)).toBeLessThan(1e-8);
    expect(Math.abs(penalised.weights[1] ?? 0)).toBeLessThan(Math.abs(plain.weights[1] ?? 0));
    // An unpenalised intercept keeps the mean prediction equal to the mean label (its gradient is zero).
    const mean = predictRows(rows, penalised.weights).reduce((a, b) => a + b, 0) / rows.length;
    expect(mean).toBeCloseTo(PASSED.reduce((a, b) => a + b, 0) / PASSED.length, 10);
  });

  it('stays finite on separable data once penalised', () => {
    const rows = [0, 1, 2, 3, 4, 5].map((v) => [1, v]);
    const y = [0, 0, 0, 1, 1, 1];
    const fit = fitLogistic(rows, y, { l2: 0.1 });
    expect(fit.converged).toBe(true);
    expect(fit.weights.every(Number.isFinite)).toBe(true);
    expect(fit.weights[1]).toBeGreaterThan(0);
  });
});
