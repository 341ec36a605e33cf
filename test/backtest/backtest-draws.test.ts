import { describe, expect, it } from 'vitest';
import { defaultBalance } from '../../src/backtest/default-balance.js';
import { drawSeeds, runDraws, runSensitivity } from '../../src/backtest/draws.js';
import { prepareRecording } from '../../src/backtest/prepared-recording.js';
import { runBacktest } from '../../src/backtest/run-backtest.js';
import { marketResponse } from '../../src/engine/index.js';
import { syntheticRecording } from './recording-fixtures.js';
import { FLAT_STRATEGY_YAML, flatStrategy } from './strategy-fixtures.js';

// 300 requests of 500.00 (maximum 0.3); a strategy pricing at 0.25 is near the maximum, so how
// rate-sensitive borrowers are matters.
const recording = prepareRecording(syntheticRecording(300, 9, (low, random) => (low < 600 && random() < 0.5 ? 0.4 : 1)));
const dear = flatStrategy(FLAT_STRATEGY_YAML.replace('ceiling: 0.12', 'ceiling: 0.25'));
const options = { startingBalanceCents: 50_000_000 };

describe('draws', () => {
  it('runs one backtest per seed and reports the mean and the range, the first draw in full', () => {
    const seeds = drawSeeds(3, 4);
    expect(seeds).toEqual([3, 4, 5, 6]);
    const { first, draws } = runDraws(recording, [dear], options, seeds);
    expect(first.settings.market.seed).toBe(3);
    expect(draws.draws.map((d) => d.seed)).toEqual(seeds);
    const alone = seeds.map((seed) => runBacktest(recording, [dear], { ...options, market: { seed } }).summary.netAnnualizedReturn);
    expect(draws.draws.map((d) => d.netAnnualizedReturn)).toEqual(alone);
    expect(draws.netAnnualizedReturn.mean).toBeCloseTo(alone.reduce((a, b) => a + b, 0) / 4, 12);
    expect(draws.netAnnualizedReturn.min).toBe(Math.min(...alone));
    expect(draws.netAnnualizedReturn.max).toBe(Math.max(...alone));
    // Different seeds are different borrowers' choices.
    expect(new Set(draws.draws.map((d) => d.funded)).size).toBeGreaterThan(1);
  });

  it('sensitivity: more rate-sensitive borrowers take fewer expensive offers', () => {
    const cases = runSensitivity(recording, [dear], { ...options, market: { response: marketResponse() } }, drawSeeds(1, 3));
    expect(cases.map((c) => [c.takeUp.midpoint, c.takeUp.steepness])).toEqual([
      [0.7, 3],
      [0.7, 12],
      [0.55, 6],
      [0.85, 6],
    ]);
    const funded = cases.map((c) => c.draws.funded.mean);
    // At 0.25 of 0.3 (position 0.815, past the midpoint) a steeper curve and an earlier midpoint
    // both mean fewer takers.
    expect(funded[1]).toBeLessThan(funded[0] ?? 0);
    expect(funded[2]).toBeLessThan(funded[3] ?? 0);
  });
});

describe('the default balance', () => {
  it('is 100 × the average total_amount, rounded up to 1,000 USD', () => {
    // Every request of the synthetic recording is 500.00: 100 x 500.00 = 50,000.00 exactly.
    expect(defaultBalance(recording)).toEqual({ cents: 5_000_000, averageTotalCents: 50_000 });
    const odd = prepareRecording(
      syntheticRecording(3, 1, () => 1).map((line, i) => ({
        ...line,
        loan_request: { ...line.loan_request, total_amount: ['500.00', '620.10', '700.00'][i] ?? '0' },
      })),
    );
    // Average 606.70: 100 x 606.70 = 60,670.00, rounded up to 61,000.00.
    expect(defaultBalance(odd)).toEqual({ cents: 6_100_000, averageTotalCents: 60_670 });
  });
});
