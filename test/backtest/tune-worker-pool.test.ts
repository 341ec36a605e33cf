/**
 * The worker pool (src/backtest/tune/worker-pool.ts): this thread runs trials beside the worker
 * threads, all claiming the next group of a batch from one shared counter, so a pool of n threads
 * starts n − 1 workers (on two cores, one worker's heap fewer: issue 39) and gives the results in
 * task order, the same as in this thread alone.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shareCompactRecording } from '../../src/backtest/compact/shared-compact-recording.js';
import { loadRecording } from '../../src/backtest/load-recording.js';
import type { PreparedRecording } from '../../src/backtest/prepared-recording.js';
import { timeWindows } from '../../src/backtest/tune/time-splits.js';
import { inProcessEvaluator, type TrialContext, type TrialTask } from '../../src/backtest/tune/trial-evaluator.js';
import { workerPoolEvaluator } from '../../src/backtest/tune/worker-pool.js';
import { syntheticRecording, writeRecording } from './recording-fixtures.js';
import { FLAT_STRATEGY_YAML, flatStrategy } from './strategy-fixtures.js';

const split = { kind: 'split', trainShare: 0.7 } as const;
// Held-out tasks are full backtests, one group each: the first group is task 0.
const tasks: TrialTask[] = Array.from({ length: 6 }, (_, trial) => ({ trial, window: 0, part: 'test' }));
const trials = Array.from({ length: 6 }, (_, k) => ({ min_credit_score: 540 + 20 * k }));

describe('the tune worker pool', () => {
  let dir: string;
  let file: string;
  let strategyFile: string;
  let recording: PreparedRecording;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lendbot-tune-pool-'));
    file = join(dir, 'rec.jsonl');
    strategyFile = join(dir, 'flat.yaml');
    await writeRecording(
      file,
      syntheticRecording(300, 7, (low) => (low < 620 ? 0.3 : 1)),
    );
    await writeFile(strategyFile, FLAT_STRATEGY_YAML);
    recording = await loadRecording(file, {}, () => undefined);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const contextWith = (yaml: string): TrialContext => ({
    strategy: flatStrategy(yaml),
    windows: timeWindows(recording, split),
    trials,
    backtest: { startingBalanceCents: 10_000_000 },
    objective: { objective: 'net_return', maxDefault: 0.1 },
  });

  it('with one thread, starts no worker and runs every task here', async () => {
    const context = contextWith(FLAT_STRATEGY_YAML);
    // A worker would read this file itself (no shared recording given) and fail.
    const evaluator = workerPoolEvaluator({ file: join(dir, 'absent.jsonl'), period: {}, strategyFile, split }, 1)(context);
    try {
      const outcomes = await evaluator.evaluate(tasks, () => undefined);
      expect(outcomes).toEqual(await inProcessEvaluator(context).evaluate(tasks, () => undefined));
    } finally {
      await evaluator.close();
    }
  });

  it('runs the first group in this thread and the rest wherever a thread is free, in task order', async () => {
    // This thread's strategy prices differently from the file the worker loads, so each outcome
    // shows which thread made it.
    const here = contextWith(FLAT_STRATEGY_YAML.replace('ceiling: 0.12', 'ceiling: 0.2'));
    const onFile = contextWith(FLAT_STRATEGY_YAML);
    const source = { recording: shareCompactRecording(recording), file, period: {}, strategyFile, split };
    const evaluator = workerPoolEvaluator(source, 2)(here);
    let ticks = 0;
    try {
      const outcomes = await evaluator.evaluate(tasks, () => (ticks += 1));
      const mine = await inProcessEvaluator(here).evaluate(tasks, () => undefined);
      const theirs = await inProcessEvaluator(onFile).evaluate(tasks, () => undefined);
      expect(mine[0]).not.toEqual(theirs[0]);
      expect(outcomes[0]).toEqual(mine[0]);
      outcomes.forEach((outcome, k) => expect([mine[k], theirs[k]]).toContainEqual(outcome));
      expect(ticks).toBe(tasks.length);
    } finally {
      await evaluator.close();
    }
  });
});
