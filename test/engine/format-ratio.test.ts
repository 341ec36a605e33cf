/**
 * formatRatio writes every rate and probability in a decision's reasons: at least two decimals,
 * at most four (up to two trailing zeros of toFixed(4) dropped). Checked against that rule as a
 * regular expression, over values of every shape a reason meets.
 */
import { describe, expect, it } from 'vitest';
import { formatRatio } from '../../src/engine/decision.js';
import { seededRandom } from '../../src/engine/market/seeded-normals.js';

const byRule = (value: number): string => (Number.isFinite(value) ? value.toFixed(4).replace(/0{1,2}$/, '') : String(value));

describe('formatRatio', () => {
  it('keeps two to four decimals', () => {
    expect(formatRatio(0.7)).toBe('0.70');
    expect(formatRatio(0.25)).toBe('0.25');
    expect(formatRatio(0.123)).toBe('0.123');
    expect(formatRatio(0.12345)).toBe('0.1235');
    expect(formatRatio(2)).toBe('2.00');
    expect(formatRatio(-0.5)).toBe('-0.50');
    expect(formatRatio(Number.NaN)).toBe('NaN');
    expect(formatRatio(Number.POSITIVE_INFINITY)).toBe('Infinity');
  });

  it('gives what the rule gives, for any value', () => {
    const random = seededRandom(3);
    const values = [0, -0, 1e-9, 0.00005, 0.99995, 1e21, 1e30, -1e30, 123456.78, 0.1 + 0.2];
    for (let i = 0; i < 5_000; i += 1) values.push(Math.round(random() * 10 ** (1 + (i % 6))) / 10 ** (i % 7), random() * 3 - 1);
    for (const value of values) expect(formatRatio(value), String(value)).toBe(byRule(value));
  });
});
