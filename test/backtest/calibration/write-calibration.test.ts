/** Writing a fitted calibration into a strategy file: spliced in, every other line as written. */
import { describe, expect, it } from 'vitest';
import { withCalibration } from '../../../src/backtest/calibration/index.js';

const FILE = `name: x   # a comment
score:
  # the score
  scorecard: { base_odds: 6, terms: [{ feature: credit_score_mid, per_unit: 1 }] }
  min_probability: 0.7   # skip below
pricing:
  target_return: 0.08
`;

describe('withCalibration', () => {
  it("puts the block before min_probability, at the score keys' indent", () => {
    expect(withCalibration(FILE, { method: 'platt', a: 1.2, b: -0.3, description: 'fitted "here"' })).toBe(
      FILE.replace(
        '  min_probability',
        '  calibration:\n    method: platt\n    a: 1.2\n    b: -0.3\n    description: "fitted \\"here\\""\n  min_probability',
      ),
    );
  });

  it('replaces a block already there, whatever its method, and nothing else', () => {
    const once = withCalibration(FILE, {
      method: 'isotonic',
      points: [
        [0.5, 0.4],
        [0.9, 0.85],
      ],
    });
    expect(once).toContain(
      '  calibration:\n    method: isotonic\n    points:   # [score probability, calibrated probability]\n      - [0.5, 0.4]\n      - [0.9, 0.85]\n  min_probability',
    );
    expect(withCalibration(once, { method: 'platt', a: 2, b: 0 })).toBe(withCalibration(FILE, { method: 'platt', a: 2, b: 0 }));
  });

  it('ends the score with it when there is no min_probability, and refuses a flow-style score', () => {
    const without = FILE.replace('  min_probability: 0.7   # skip below\n', '');
    expect(withCalibration(without, { method: 'platt', a: 1, b: 0 })).toBe(
      without.replace('pricing:', '  calibration:\n    method: platt\n    a: 1\n    b: 0\npricing:'),
    );
    expect(() => withCalibration('score: { min_probability: 0.7 }\n', { method: 'platt', a: 1, b: 0 })).toThrow(
      /score: is not a block map in the strategy file; add this under score: by hand:\n {2}calibration:/,
    );
  });
});
