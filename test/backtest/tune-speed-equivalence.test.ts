/**
 * The speed-ups of tuning and replay (features, score contributions and prices remembered per
 * request across the param sets of one strategy, docs/performance.md) must not change a single
 * number: a tune, a backtest's decisions and its draws are compared with the same work done by
 * strategies compiled afresh for every run, which share nothing.
 */
import { describe, expect, it } from 'vitest';
import { prepareRecording } from '../../src/backtest/prepared-recording.js';
import { runDraws } from '../../src/backtest/draws.js';
import { runBacktest } from '../../src/backtest/run-backtest.js';
import { runTrial, type TrialEvaluator } from '../../src/backtest/tune/trial-evaluator.js';
import { tune, type TuneOptions } from '../../src/backtest/tune/tuner.js';
import { loadStrategyFile } from '../../src/engine/index.js';
import { syntheticRecording } from './recording-fixtures.js';

// balanced 2.1.0 (a fitted calibration, no learning): the column path's ground; a learned level replays in order.
const BALANCED = new URL('../fixtures/balanced-fitted.yaml', import.meta.url).pathname;
const recording = prepareRecording(syntheticRecording(400, 5, (low, random) => (low < 620 && random() < 0.5 ? 0.4 : 1)));
const options: TuneOptions = {
  trials: 25,
  seed: 3,
  objective: { objective: 'net_return', maxDefault: 0.1 },
  split: { kind: 'walk_forward', windows: 2 },
  backtest: { startingBalanceCents: 20_000_000 },
};

/** Runs every task with the strategy loaded again from its file: no cache survives a task. */
function freshEvaluator(): TrialEvaluator {
  return {
    async evaluate(tasks, onDone) {
      const outcomes = [];
      for (const task of tasks) {
        const strategy = await loadStrategyFile(BALANCED);
        outcomes.push(runTrial({ ...context, strategy }, task));
        onDone();
      }
      return outcomes;
    },
    close: () => Promise.resolve(),
  };
}
let context: Parameters<typeof runTrial>[0];

describe('tuning and replay with shared work', () => {
  it('give the same tune report as strategies compiled afresh for every trial', async () => {
    const shared = await tune(recording, await loadStrategyFile(BALANCED), options);
    const fresh = await tune(recording, await loadStrategyFile(BALANCED), {
      ...options,
      evaluator: (c) => {
        context = c;
        return freshEvaluator();
      },
    });
    expect(shared.windows[0]?.top.length).toBeGreaterThan(1);
    expect(shared).toEqual(fresh);
  });

  it('give the same decisions and draws when one strategy is replayed again and again', async () => {
    const strategy = await loadStrategyFile(BALANCED);
    const settings = { startingBalanceCents: 20_000_000, recordDecisions: true };
    const first = runBacktest(recording, [strategy], settings);
    const again = runBacktest(recording, [strategy], settings);
    const fresh = runBacktest(recording, [await loadStrategyFile(BALANCED)], settings);
    expect(first.summary.offers).toBeGreaterThan(0);
    expect(again).toEqual(fresh);
    expect(first).toEqual(fresh);
    const seeds = [1, 2, 3];
    const draws = runDraws(recording, [strategy], settings, seeds).draws;
    const freshDraws = [];
    for (const seed of seeds) {
      const result = runBacktest(recording, [await loadStrategyFile(BALANCED)], { ...settings, market: { seed } });
      freshDraws.push(result.summary.netCents);
    }
    expect(draws.draws.map((d) => d.netCents)).toEqual(freshDraws);
  });

  it('give the same decisions for other param sets of the same strategy', async () => {
    const strategy = await loadStrategyFile(BALANCED);
    for (const params of [{ target_return: 0.12 }, { min_probability: 0.8 }, { target_return: 0.12 }, {}]) {
      const shared = runBacktest(recording, [strategy.withParams(params)], { startingBalanceCents: 20_000_000, recordDecisions: true });
      const fresh = runBacktest(recording, [(await loadStrategyFile(BALANCED)).withParams(params)], {
        startingBalanceCents: 20_000_000,
        recordDecisions: true,
      });
      expect(shared.decisions).toEqual(fresh.decisions);
      expect(shared.summary).toEqual(fresh.summary);
    }
  });
});
