import { describe, expect, it } from 'vitest';
import { prepareRecording } from '../../src/backtest/prepared-recording.js';
import { sampleTrials, sampleValue } from '../../src/backtest/tune/param-space.js';
import { rewriteParams } from '../../src/backtest/tune/rewrite-params.js';
import { seededRandom } from '../../src/engine/market/seeded-normals.js';
import { timeWindows } from '../../src/backtest/tune/time-splits.js';
import { tune, type TuneOptions } from '../../src/backtest/tune/tuner.js';
import { syntheticRecording } from './recording-fixtures.js';
import { FLAT_STRATEGY_YAML, flatStrategy } from './strategy-fixtures.js';
import { PLANTED_OPTIONS, plantedRecording } from './tune-fixtures.js';

const options: TuneOptions = PLANTED_OPTIONS;
// The best floor is 610 or 620 (tune-fixtures.ts).
const planted = plantedRecording();
// Noise: one in five defaults whatever the credit score, repaying 69% of what is due, which makes
// the expected net of a loan about zero (0.8 x 33.04 + 0.2 x (0.69 x 533.04 - 500) = -0.01): no
// floor is better than another, and any gain in training is luck. (Over seeds 12 to 31 the
// verdict was never "improved" on noise and always found the planted floor, with the old block
// t test and with the paired held-out interval alike.)
const noise = prepareRecording(syntheticRecording(600, 14, (_, random) => (random() < 0.2 ? 0.69 : 1)));

describe('tune', () => {
  it('keeps the current values when fewer than 100 loans were funded held out, the backtest\'s "mostly luck" bar', async () => {
    const { acceptSmallSample: _accept, ...strict } = options;
    const report = await tune(planted, flatStrategy(), strict);
    expect(Math.min(report.heldOut.candidateFunded, report.heldOut.baselineFunded)).toBeLessThan(100);
    expect(report.heldOut.low).toBeGreaterThan(0);
    expect(report).toMatchObject({ improved: false, smallSample: true, chosen: report.baselineParams });
    expect(report.verdict).toMatch(
      /^too few loans to judge: .*\d+ loans funded by the candidate and \d+ by the current values\), but below 100 funded loans a backtest's figures are mostly luck; keeping the current values \(a longer recording, or --accept-small-sample to write them anyway\)$/,
    );
  });

  it('finds the planted optimum, and the gain holds out', async () => {
    const report = await tune(planted, flatStrategy(), options);
    expect([610, 620]).toContain(report.chosen.min_credit_score);
    expect(report.improved).toBe(true);
    expect(report.heldOutGain).toBeGreaterThan(0);
    expect(report.heldOut.low).toBeGreaterThan(0);
    expect(report.windows[0]?.top[0]?.test).toBeGreaterThan(report.windows[0]?.baseline.test ?? Infinity);
    expect(report.verdict).toMatch(/^improved/);
  });

  it('does not pretend on noise: the training gain does not hold out and the current values are kept', async () => {
    const report = await tune(noise, flatStrategy(), options);
    expect(report.improved).toBe(false);
    expect(report.chosen).toEqual({ min_credit_score: 560 });
    expect(report.verdict).toMatch(/^(overfit|no trial|not shown)/);
  });

  it('finds it with walk-forward windows too', async () => {
    const report = await tune(planted, flatStrategy(), { ...options, split: { kind: 'walk_forward', windows: 3 } });
    expect(report.windows).toHaveLength(3);
    expect(report.improved).toBe(true);
    expect([610, 620]).toContain(report.chosen.min_credit_score);
  });

  it('is reproducible for a seed', async () => {
    const a = await tune(noise, flatStrategy(), { ...options, seed: 7 });
    const b = await tune(noise, flatStrategy(), { ...options, seed: 7 });
    expect(a).toEqual(b);
  });
});

describe('the search space', () => {
  it('keeps to the step grid and the range, the current values first', () => {
    expect(sampleValue({ value: 600, min: 540, max: 700, step: 10, scale: 'linear' }, 0)).toBe(540);
    expect(sampleValue({ value: 600, min: 540, max: 700, step: 10, scale: 'linear' }, 0.9999)).toBe(700);
    expect(sampleValue({ value: 0.1, min: 0.01, max: 1, scale: 'log' }, 0.5)).toBeCloseTo(0.1, 6);
    const trials = sampleTrials({ a: { value: 1, min: 0, max: 2, step: 1, scale: 'linear' } }, { a: 1 }, 50, seededRandom(1));
    // A grid of three points gives three trials, each once.
    expect(trials).toEqual([{ a: 1 }, expect.anything(), expect.anything()]);
    expect(new Set(trials.map((t) => t.a))).toEqual(new Set([0, 1, 2]));
  });

  it('splits in time order: training before held-out, walk-forward windows anchored at the start', () => {
    const [window] = timeWindows(planted, { kind: 'split', trainShare: 0.7 });
    expect(window?.train.entries).toHaveLength(420);
    expect(window?.test.entries[0]?.seenMs).toBeGreaterThan(window?.train.entries.at(-1)?.seenMs ?? Infinity);
    const walk = timeWindows(planted, { kind: 'walk_forward', windows: 2 });
    expect(walk.map((w) => [w.train.entries.length, w.test.entries.length])).toEqual([
      [200, 200],
      [400, 200],
    ]);
  });
});

describe('writing the tuned strategy', () => {
  it('changes only the param values, comments and layout kept', () => {
    const out = rewriteParams(FLAT_STRATEGY_YAML, { min_credit_score: 620 });
    expect(out).toBe(FLAT_STRATEGY_YAML.replace('{ value: 560,', '{ value: 620,'));
    expect(rewriteParams('params:\n  floor: 3 # short form\n', { floor: 4.5 })).toBe('params:\n  floor: 4.5 # short form\n');
    expect(() => rewriteParams(FLAT_STRATEGY_YAML, { nope: 1 })).toThrow('param "nope" has no value in the file');
  });
});
