// The take-up curve fitted from fates (take-up-fit.ts): a borrower-dependent curve is recovered
// when the fates carry one, and a borrower-blind market keeps a borrower-blind curve.
import { describe, expect, it } from 'vitest';
import { fitTakeUpCurve, LR_CRITICAL, type TakeUpObservation } from '../../../src/backtest/train/index.js';
import { seededRandom } from '../../../src/engine/market/seeded-normals.js';
import { takeUpProbability, type TakeUpCurve } from '../../../src/engine/index.js';

/** `count` offers at uniform positions to borrowers of default probability 0 to 0.5, taking by `curve`. */
function fates(curve: TakeUpCurve, count: number, seed: number): TakeUpObservation[] {
  const random = seededRandom(seed);
  const sample: TakeUpObservation[] = [];
  for (let i = 0; i < count; i += 1) {
    const u = random();
    const pd = random() * 0.5;
    // Position u at a maximum of 0.36: the rate 0.03 + u × 0.33.
    const took = random() < takeUpProbability(0.03 + u * 0.33, 0.36, curve, pd) ? 1 : 0;
    sample.push({ u, pd, took });
  }
  return sample;
}

describe('fitTakeUpCurve', () => {
  it('recovers a curve on which better borrowers walk away sooner and more sharply', () => {
    const truth = { midpoint: 0.2, steepness: 12, midpointPerDefault: 1.6, steepnessPerDefault: -14 };
    const fit = fitTakeUpCurve(fates(truth, 6000, 3));
    if (typeof fit === 'string') throw new Error(fit);
    expect(fit.borrowerEvidence).toBeGreaterThan(LR_CRITICAL);
    expect(fit.midpoint).toBeCloseTo(0.2, 1);
    expect(fit.midpointPerDefault).toBeGreaterThan(1.2);
    expect(fit.midpointPerDefault).toBeLessThan(2);
    expect(fit.steepness).toBeGreaterThan(9);
    expect(fit.steepnessPerDefault).toBeLessThan(-8);
  });

  it('keeps one curve for every borrower when the fates do not depend on the borrower', () => {
    const fit = fitTakeUpCurve(fates({ midpoint: 0.65, steepness: 6 }, 6000, 4));
    if (typeof fit === 'string') throw new Error(fit);
    expect(fit.midpointPerDefault).toBe(0);
    expect(fit.steepnessPerDefault).toBe(0);
    expect(fit.borrowerEvidence).toBeLessThan(LR_CRITICAL);
    expect(Math.abs(fit.midpoint - 0.65)).toBeLessThan(0.03);
    expect(Math.abs(fit.steepness - 6)).toBeLessThan(0.8);
  });

  it('says why when one kind of fate is missing', () => {
    const all = fates({ midpoint: 5, steepness: 6 }, 300, 5);
    expect(fitTakeUpCurve(all.filter((o) => o.took === 1))).toMatch(/^\d+ offers taken and 0 not taken \(each needs 20\)$/);
  });
});
