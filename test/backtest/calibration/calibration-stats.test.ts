/**
 * The calibration figures: deciles of predicted default with a 95 % interval, the Brier score
 * against a constant guess, the bands around min_probability, and the findings in words.
 */
import { describe, expect, it } from 'vitest';
import { calibrationStats, type Prediction } from '../../../src/backtest/calibration/index.js';

/** `n` predictions at `predicted`, `defaults` of them defaulted. */
function many(n: number, predicted: number, defaults: number): Prediction[] {
  return Array.from({ length: n }, (_, i) => ({ predicted, defaulted: i < defaults ? 1 : 0 }));
}

describe('calibration figures', () => {
  it("gives each group's realised rate its 95 % Wilson interval: 8 of 100 is 4.1 % to 15.0 %", () => {
    const { overall } = calibrationStats(many(100, 0.1, 8), 0);
    expect(overall.realised).toBe(0.08);
    expect(overall.low).toBeCloseTo(0.0411, 4);
    expect(overall.high).toBeCloseTo(0.15, 4);
    expect(calibrationStats(many(30, 0.1, 0), 0).overall.low).toBe(0);
  });

  it('says where the strategy is miscalibrated, plainly, with n', () => {
    // Predicts 11.6 % everywhere; 8.1 % happened.
    const items = many(1000, 0.116, 81);
    const stats = calibrationStats(items, 0);
    expect(stats.overall).toMatchObject({ n: 1000, realised: 0.081 });
    expect(stats.overall.predicted).toBeCloseTo(0.116, 12);
    expect(stats.findings[0]).toEqual({
      kind: 'overall',
      ok: false,
      text: 'overall: predicts 11.6 % where 8.1 % happened (95 % interval 6.6-10.0 %, n=1000): overstates default by 3.5 points',
    });
    expect(stats.deciles).toHaveLength(10);
    expect(stats.deciles.reduce((sum, row) => sum + row.n, 0)).toBe(1000);
  });

  it('calls a prediction within 2 points, or within the interval, calibrated', () => {
    expect(calibrationStats(many(1000, 0.1, 81), 0).findings[0]?.ok).toBe(true);
    // 30 requests: 5 of 30 (16.7 %) has an interval 7.3-33.6 % that holds 25 %.
    const few = calibrationStats(many(30, 0.25, 5), 0);
    expect(few.findings[0]).toMatchObject({ ok: true });
    expect(few.findings[0]?.text).toContain('within the interval');
  });

  it('scores the Brier score against a constant guess at the base rate', () => {
    // Half predicted 0.1 with 10 % defaulting, half 0.5 with half defaulting: the base rate is 0.3.
    const items = [...many(100, 0.1, 10), ...many(100, 0.5, 50)];
    const stats = calibrationStats(items, 0);
    expect(stats.constantBrier).toBeCloseTo(0.3 * 0.7, 12);
    expect(stats.brier).toBeCloseTo((0.1 * 0.9 + 0.25) / 2, 12);
    expect(stats.findings.find((f) => f.kind === 'brier')?.text).toMatch(
      /^Brier score 0\.1700 against 0\.2100 for a constant guess at the base rate 30\.0 % \(n=200\): 19\.0 % better$/,
    );
    // One constant prediction is no better than the constant guess.
    expect(calibrationStats(many(100, 0.3, 10), 0).findings.find((f) => f.kind === 'brier')?.ok).toBe(false);
  });

  it('compares the requests just below and just above min_probability, and says when the cut is upside down', () => {
    // Repayment 0.67 (just below a 0.7 cut): 10 % default; 0.72 (just above): 30 %; 0.9: far above.
    const items = [...many(50, 0.33, 5), ...many(50, 0.28, 15), ...many(100, 0.1, 10), ...many(20, 0.5, 10)];
    const stats = calibrationStats(items, 0.7);
    expect(stats.cut?.below).toMatchObject({ n: 50, realised: 0.1 });
    expect(stats.cut?.above).toMatchObject({ n: 50, realised: 0.3 });
    expect(stats.cut?.passing.n).toBe(150);
    const cut = stats.findings.find((f) => f.kind === 'cut');
    expect(cut?.ok).toBe(false);
    expect(cut?.text).toBe(
      'just below min_probability 0.7 (scored 0.65-0.70): 10.0 % defaulted (95 % interval 4.3-21.4 %, n=50, predicted 33.0 %); ' +
        'just above (0.70-0.75): 30.0 % (95 % interval 19.1-43.8 %, n=50, predicted 28.0 %): requests just below the cut defaulted less than those just above (the intervals overlap: it may be chance)',
    );
    expect(calibrationStats(items, 0).cut).toBeUndefined();
  });
});
