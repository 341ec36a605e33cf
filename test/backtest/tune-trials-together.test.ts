/**
 * A tune's full-backtest trials of one period replayed together (trial-evaluator.ts's
 * runTrialsByBacktest: each request built from the compact recording and its features computed
 * once for every replay of a bundle) give each trial the outcome it has replayed alone, training
 * (in a halving rung and on the whole period) and held out (in every borrower world, with each
 * request's contribution); and the bundles keep the tune's threads equally busy.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCompactRecording } from '../../src/backtest/compact/compact-recording.js';
import { defaultBalance } from '../../src/backtest/default-balance.js';
import { WORLD_NAMES } from '../../src/backtest/borrower-worlds.js';
import { sampleTrials } from '../../src/backtest/tune/param-space.js';
import { timeWindows } from '../../src/backtest/tune/time-splits.js';
import {
  groupTasks,
  runGroup,
  runTrialByBacktest,
  runTrialsByBacktest,
  TRIALS_TOGETHER,
  type TrialContext,
  type TrialTask,
} from '../../src/backtest/tune/trial-evaluator.js';
import { seededRandom } from '../../src/engine/market/seeded-normals.js';
import { loadStrategyFile } from '../../src/engine/index.js';
import { exportSandboxRecording } from '../../src/sandbox/index.js';

// balanced learns its prices: its trials cannot take the column path, each is a full backtest.
const BALANCED = new URL('../../strategies/balanced.yaml', import.meta.url).pathname;

let dir: string;
let context: TrialContext;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lendbot-together-'));
  const file = join(dir, 'classic.jsonl');
  await exportSandboxRecording(file, { seed: 11, requests: 2500, shape: 'classic' });
  const recording = await loadCompactRecording(file, { onIssue: () => undefined });
  const strategy = await loadStrategyFile(BALANCED);
  context = {
    strategy,
    windows: timeWindows(recording, { kind: 'split', trainShare: 0.7 }),
    trials: sampleTrials(strategy.paramSpecs, strategy.params, 12, seededRandom(5)),
    backtest: { startingBalanceCents: defaultBalance(recording).cents },
    objective: { objective: 'net_return', maxDefault: 0.1 },
    rungShares: [1 / 3, 1],
  };
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const trialsOf = (count: number): number[] => Array.from({ length: count }, (_, trial) => trial);

describe('full-backtest trials replayed together', () => {
  it('give every training trial, in a halving rung and on the whole period, the outcome it has alone', () => {
    for (const rung of [{ rung: 0 }, {}]) {
      const tasks: TrialTask[] = trialsOf(12).map((trial) => ({ trial, window: 0, part: 'train', ...rung }));
      const together = runTrialsByBacktest(context, tasks);
      expect(together).toEqual(tasks.map((task) => runTrialByBacktest(context, task)));
      // The trials differ: a bundle that gave every replay the first one's decisions would fail here.
      expect(new Set(together.map((outcome) => outcome.figures.offers)).size).toBeGreaterThan(3);
      expect(together.filter((outcome) => outcome.figures.funded > 0).length).toBeGreaterThan(3);
    }
  });

  it('give every held-out run, in each borrower world, its outcome and request contributions as alone', () => {
    const tasks: TrialTask[] = [undefined, ...WORLD_NAMES.map((_, world) => world)].flatMap((world) =>
      [0, 7].map((trial) => ({ trial, window: 0, part: 'test' as const, ...(world === undefined ? {} : { world }) })),
    );
    const together = runTrialsByBacktest(context, tasks);
    expect(together).toEqual(tasks.map((task) => runTrialByBacktest(context, task)));
    expect(together[0]?.requestNetCents?.length).toBe(context.windows[0]?.test.entries.length);
  });

  it('refuse to run tasks of different periods together', () => {
    expect(() =>
      runTrialsByBacktest(context, [
        { trial: 0, window: 0, part: 'train' },
        { trial: 1, window: 0, part: 'test' },
      ]),
    ).toThrow(/one period/);
  });

  it('come in bundles of at most TRIALS_TOGETHER, as many as keep the threads equally busy, one period each', () => {
    const sizes = (tasks: TrialTask[], threads: number): number[] => groupTasks(context, tasks, threads).map((group) => group.length);
    const training = (count: number, rung?: number): TrialTask[] =>
      trialsOf(count).map((trial) => ({ trial, window: 0, part: 'train', ...(rung === undefined ? {} : { rung }) }));
    // 40 on 2 threads: 6 bundles of 6 or 7 (3 each), not 5 of 8.
    expect(sizes(training(40), 2)).toEqual([7, 7, 7, 7, 6, 6]);
    expect(sizes(training(10), 1)).toEqual([5, 5]);
    expect(sizes(training(3), 2)).toEqual([2, 1]);
    const many = groupTasks(context, training(1000, 0), 2);
    expect(many.length % 2).toBe(0);
    expect(Math.max(...many.map((group) => group.length))).toBeLessThanOrEqual(TRIALS_TOGETHER);
    expect(many.flat().sort((a, b) => a - b)).toEqual(trialsOf(1000));
    // Held-out runs never share a bundle with training ones: they replay another period.
    const mixed: TrialTask[] = [...training(4), { trial: 0, window: 0, part: 'test' }, { trial: 3, window: 0, part: 'test' }];
    expect(groupTasks(context, mixed, 1)).toEqual([
      [0, 1, 2, 3],
      [4, 5],
    ]);
  });

  it('run a group as groupTasks made it, its outcomes in the group’s order', () => {
    const tasks: TrialTask[] = [4, 2, 9].map((trial) => ({ trial, window: 0, part: 'train', rung: 0 }));
    expect(runGroup(context, tasks, [2, 0, 1])).toEqual([2, 0, 1].map((index) => runTrialByBacktest(context, tasks[index] as TrialTask)));
  });
});
