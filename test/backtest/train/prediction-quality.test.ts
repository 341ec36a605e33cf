import { describe, expect, it } from 'vitest';
import { auc, brier } from '../../../src/backtest/train/index.js';

describe('auc', () => {
  it('is 1 for a perfect ranking, 0 for a reversed one, 0.5 when all tie', () => {
    expect(auc([0.1, 0.2, 0.8, 0.9], [0, 0, 1, 1])).toBe(1);
    expect(auc([0.9, 0.8, 0.2, 0.1], [0, 0, 1, 1])).toBe(0);
    expect(auc([0.5, 0.5, 0.5, 0.5], [0, 1, 0, 1])).toBe(0.5);
  });

  it('counts the pairs ranked right, by hand', () => {
    // Pairs (repaid, defaulted): (0.35, 0.1) right, (0.35, 0.4) wrong, (0.8, 0.1) right, (0.8, 0.4) right: 3 of 4.
    expect(auc([0.1, 0.4, 0.35, 0.8], [0, 0, 1, 1])).toBe(0.75);
    // A tie between a repaid and a defaulted line counts one half: (0.5 vs 0.5) half, (0.9 vs 0.5) right: 1.5 of 2.
    expect(auc([0.5, 0.5, 0.9], [0, 1, 1])).toBe(0.75);
  });

  it('is null without both classes', () => {
    expect(auc([0.2, 0.3], [1, 1])).toBeNull();
  });
});

describe('brier', () => {
  it('is the mean squared error of the probability', () => {
    expect(brier([0.1, 0.9], [0, 1])).toBeCloseTo(0.01, 12);
    expect(brier([0.5, 0.5, 0.5, 0.5], [0, 1, 0, 1])).toBeCloseTo(0.25, 12);
    // (0.8-1)^2 + (0.3-0)^2 + (0.6-0)^2 = 0.04 + 0.09 + 0.36 = 0.49, / 3
    expect(brier([0.8, 0.3, 0.6], [1, 0, 0])).toBeCloseTo(0.49 / 3, 12);
  });
});
