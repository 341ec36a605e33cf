/**
 * Fitting a calibration on a score whose probabilities are off in a known way: Platt finds the
 * slope and shift that made the labels, isotonic gives rising points that follow them, and both
 * bring the predicted default to what happened.
 */
import { describe, expect, it } from 'vitest';
import { calibrator, CalibrationFitError, fitCalibration, MIN_BLOCK, type ScoredRequest } from '../../../src/backtest/calibration/index.js';
import { seededRandom } from '../../../src/engine/market/seeded-normals.js';

const logistic = (x: number): number => 1 / (1 + Math.exp(-x));

/** A score that says sigmoid(s) where the truth is sigmoid(a·s + b): too sure by 1/a, off in level by b. */
function scored(n: number, a: number, b: number, seed = 3): ScoredRequest[] {
  const random = seededRandom(seed);
  return Array.from({ length: n }, (_, i) => {
    // s roughly normal around 2 (a sum of uniforms).
    const s = 2 + (random() + random() + random() - 1.5) * 2;
    const repaid = random() < logistic(a * s + b);
    return { loanRequestId: i, probability: logistic(s), rawProbability: logistic(s), defaulted: repaid ? 0 : 1 };
  });
}

const meanDefault = (items: readonly ScoredRequest[], p: (item: ScoredRequest) => number): number =>
  items.reduce((sum, item) => sum + 1 - p(item), 0) / items.length;
const realised = (items: readonly ScoredRequest[]): number => items.reduce((sum, item) => sum + item.defaulted, 0) / items.length;

describe('fitting a calibration', () => {
  const items = scored(20_000, 0.6, -0.3);

  it('platt recovers the slope and shift the labels were drawn with', () => {
    const fit = fitCalibration(items, 'platt');
    if (fit.method !== 'platt') throw new Error('platt expected');
    expect(fit.a).toBeGreaterThan(0.5);
    expect(fit.a).toBeLessThan(0.7);
    expect(fit.b).toBeGreaterThan(-0.5);
    expect(fit.b).toBeLessThan(-0.1);
    const map = calibrator(fit);
    expect(Math.abs(meanDefault(items, (item) => map(item.rawProbability)) - realised(items))).toBeLessThan(0.002);
    // The score alone was far off.
    expect(realised(items) - meanDefault(items, (item) => item.rawProbability)).toBeGreaterThan(0.1);
  });

  it('isotonic gives rising points, strictly inside (0, 1), each from a block of at least 30 requests', () => {
    const fit = fitCalibration(items, 'isotonic');
    if (fit.method !== 'isotonic') throw new Error('isotonic expected');
    expect(fit.points.length).toBeGreaterThan(5);
    expect(fit.points.length).toBeLessThanOrEqual(25);
    fit.points.forEach(([p, q], i) => {
      expect(q).toBeGreaterThan(0);
      expect(q).toBeLessThan(1);
      const before = fit.points[i - 1];
      if (before) {
        expect(p).toBeGreaterThan(before[0]);
        expect(q).toBeGreaterThanOrEqual(before[1]);
      }
    });
    const map = calibrator(fit);
    expect(Math.abs(meanDefault(items, (item) => map(item.rawProbability)) - realised(items))).toBeLessThan(0.01);
    // Small data: blocks of MIN_BLOCK, with one repaid and one defaulted request added to each (never 0 or 1).
    const small = fitCalibration(scored(200, 0.6, -0.3, 9), 'isotonic');
    if (small.method !== 'isotonic') throw new Error('isotonic expected');
    expect(small.points.length).toBeLessThanOrEqual(Math.floor(200 / MIN_BLOCK));
    for (const [, q] of small.points) expect(q).toBeLessThanOrEqual(1 - 1 / (MIN_BLOCK + 2));
  });

  it('refuses a score that ranks repaid requests below defaulted ones', () => {
    const backwards = scored(2_000, -1, 2);
    expect(() => fitCalibration(backwards, 'platt')).toThrow(CalibrationFitError);
    expect(() => fitCalibration(backwards, 'platt')).toThrow(
      /does not rank repaid above defaulted requests here \(Platt slope -\d\.\d{3}\)/,
    );
  });
});
