import { describe, expect, it } from 'vitest';
import { logistic, logit } from '../../src/math/index.js';

describe('log-odds', () => {
  it('logit undoes logistic', () => {
    for (const x of [-6, -1.5, 0, 0.3, 4]) expect(logit(logistic(x))).toBeCloseTo(x, 9);
  });

  it('keeps 0 and 1 finite at the learners edge, and lets a caller ask for no clamp', () => {
    expect(logit(0)).toBeCloseTo(Math.log(1e-6 / (1 - 1e-6)), 12);
    expect(logit(1)).toBeCloseTo(-Math.log(1e-6 / (1 - 1e-6)), 6);
    expect(logit(1 - 1e-8, 1e-9)).toBeCloseTo(Math.log((1 - 1e-8) / 1e-8), 6);
    expect(logit(0, 0)).toBe(Number.NEGATIVE_INFINITY);
  });
});
