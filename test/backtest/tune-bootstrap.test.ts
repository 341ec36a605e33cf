import { describe, expect, it } from 'vitest';
import { blockBootstrap, blockLengthFor } from '../../src/backtest/tune/block-bootstrap.js';
import { compareHeldOut } from '../../src/backtest/tune/held-out-comparison.js';
import type { TrialOutcome } from '../../src/backtest/tune/trial-evaluator.js';
import { seededRandom } from '../../src/engine/market/seeded-normals.js';

const settings = { resamples: 2000, confidence: 0.95, seed: 7 };
const DAY_MS = 86_400_000;

describe('the block bootstrap', () => {
  it('gives a degenerate interval for constant differences', () => {
    const interval = blockBootstrap([{ values: Array.from({ length: 100 }, () => 0.5), blockLength: 7, weight: 1 }], settings);
    // 100 values in blocks of 7: fifteen blocks, the last cut to 2, so every resample sums to 50.
    expect(interval).toEqual({ estimate: 50, low: 50, high: 50 });
  });

  it('is reproducible for a seed, and another seed draws other resamples', () => {
    const random = seededRandom(3);
    const values = Array.from({ length: 500 }, () => random() - 0.45);
    const series = [{ values, blockLength: 10, weight: 1 }];
    const a = blockBootstrap(series, settings);
    expect(blockBootstrap(series, settings)).toEqual(a);
    expect(blockBootstrap(series, { ...settings, seed: 8 })).not.toEqual(a);
    expect(a.estimate).toBeCloseTo(
      values.reduce((s, v) => s + v, 0),
      9,
    );
    expect(a.low).toBeLessThan(a.estimate);
    expect(a.high).toBeGreaterThan(a.estimate);
    // Mean 0.05 a value, sd about 0.29: the sum's 95% interval is about 25 ± 1.96 × 6.5.
    expect(a.low).toBeGreaterThan(5);
    expect(a.high).toBeLessThan(45);
    const wider = blockBootstrap(series, { ...settings, confidence: 0.99 });
    expect(wider.low).toBeLessThan(a.low);
  });

  it('weights and adds several series, each resampled within itself', () => {
    const interval = blockBootstrap(
      [
        { values: [1, 1, 1, 1], blockLength: 2, weight: 0.5 },
        { values: [3, 3], blockLength: 1, weight: 0.5 },
      ],
      settings,
    );
    expect(interval).toEqual({ estimate: 5, low: 5, high: 5 });
  });

  it('keeps dependence: blocks widen the interval of a series that moves in runs', () => {
    // Runs of 25 equal values (+1 or −1): single values resampled look far surer than they are.
    const random = seededRandom(5);
    const values: number[] = [];
    while (values.length < 1000) {
      const sign = random() < 0.5 ? -1 : 1;
      for (let i = 0; i < 25; i += 1) values.push(sign);
    }
    const width = (blockLength: number): number => {
      const i = blockBootstrap([{ values, blockLength, weight: 1 }], settings);
      return i.high - i.low;
    };
    expect(width(25)).toBeGreaterThan(2.5 * width(1));
  });

  it('takes about a week of requests per block, at least n^(1/3), at most n / 20', () => {
    expect(blockLengthFor(900, 450 * DAY_MS)).toBe(14);
    expect(blockLengthFor(1800, 2.5 * DAY_MS)).toBe(90);
    expect(blockLengthFor(1000, 10_000 * DAY_MS)).toBe(10);
    expect(blockLengthFor(30, DAY_MS)).toBe(1);
    expect(blockLengthFor(1, 0)).toBe(1);
  });
});

describe('the paired held-out comparison', () => {
  const outcome = (netCents: number[], years: number, ret: number, score: number, funded: number): TrialOutcome => ({
    trial: 0,
    window: 0,
    part: 'test',
    score,
    years,
    requestNetCents: netCents,
    figures: {
      netAnnualizedReturn: ret,
      maxDrawdown: ret - score,
      defaultRate: 0,
      offers: funded,
      funded,
      netCents: netCents.reduce((a, b) => a + b, 0),
    },
  });

  it('turns each run’s contributions into its own annualized return, so the differences add up to the return gain', () => {
    // $1,000 balance; the candidate nets $10 on each of 40 requests over 2 years (20% a year),
    // the current values $5 over 1 year (20% a year too): no gain, whatever the cents say.
    const candidate = outcome(
      Array.from({ length: 40 }, () => 1000),
      2,
      0.2,
      0.2,
      40,
    );
    const baseline = outcome(
      Array.from({ length: 40 }, () => 500),
      1,
      0.2,
      0.2,
      40,
    );
    const evidence = compareHeldOut([{ candidate, baseline, spanMs: 40 * DAY_MS }], 100_000, 1);
    expect(evidence.returnGain).toBeCloseTo(0, 12);
    expect(evidence.low).toBeCloseTo(0, 12);
    expect(evidence.high).toBeCloseTo(0, 12);
    expect(evidence).toMatchObject({
      requests: 40,
      candidateFunded: 40,
      baselineFunded: 40,
      confidence: 0.95,
      resamples: 2000,
      blockLengths: [2],
    });
  });

  it('charges a penalty increase in full and gives no credit for a decrease', () => {
    const gain = Array.from({ length: 40 }, () => 250); // 40 × $2.50 on $1,000 over a year: +10 points
    const none = Array.from({ length: 40 }, () => 0);
    const worse = compareHeldOut(
      [{ candidate: outcome(gain, 1, 0.1, 0.07, 5), baseline: outcome(none, 1, 0, -0.01, 5), spanMs: DAY_MS }],
      100_000,
      1,
    );
    expect(worse.returnGain).toBeCloseTo(0.1, 12);
    expect(worse.penaltyIncrease).toBeCloseTo(0.02, 12);
    expect(worse.gain).toBeCloseTo(0.08, 12);
    expect(worse.low).toBeCloseTo(0.08, 12);
    const better = compareHeldOut(
      [{ candidate: outcome(none, 1, 0, 0, 5), baseline: outcome(none, 1, 0, -0.05, 5), spanMs: DAY_MS }],
      100_000,
      1,
    );
    expect(better.penaltyIncrease).toBeCloseTo(-0.05, 12);
    expect(better.gain).toBe(0);
    expect(better.low).toBe(0);
  });
});
