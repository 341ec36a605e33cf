/**
 * Tuning on every core: this thread and worker threads run the trial tasks of a batch together.
 * Each worker thread reads the recording (the tune's own, in shared memory:
 * shared-compact-recording.ts) and loads the strategy once. The tasks come in groups
 * (trial-evaluator.ts's groupTasks): over columns, trials that share their prices; as full
 * backtests, bundles of one period replayed together; each thread claims the
 * next group from a counter in shared memory as it finishes one, so each price is computed by one
 * thread, slow and fast groups balance out, and no thread waits for another to hand it work.
 * Results are put back in task order, so a tune gives the same report with or without workers.
 *
 * This thread runs trials too, rather than only handing them out: on two cores one worker thread
 * and this one keep both busy, and the second worker's heap (its own entries of the recording,
 * its replays' garbage) is not needed (issue 39).
 * A worker never waits for this thread, though it is busy in a trial: it claims its next group
 * from the shared counter, and its results wait in the message queue.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { SharedCompactRecording } from '../compact/shared-compact-recording.js';
import type { PeriodFilter } from '../prepared-recording.js';
import type { BacktestOptions } from '../run-backtest.js';
import type { ObjectiveSettings } from './objectives.js';
import type { ParamValues } from './param-space.js';
import type { SplitSpec } from './time-splits.js';
import { groupTasks, runGroup, type TrialContext, type TrialEvaluator, type TrialOutcome, type TrialTask } from './trial-evaluator.js';

/** What a worker needs to rebuild the trial context on its own. */
export interface WorkerInit {
  /** The recording as the tune loaded it, read without a copy; absent: the worker reads `file` itself. */
  recording?: SharedCompactRecording | undefined;
  file: string;
  period: PeriodFilter;
  strategyFile: string;
  split: SplitSpec;
  trials: readonly ParamValues[];
  backtest: BacktestOptions;
  objective: ObjectiveSettings;
  rungShares: readonly number[] | undefined;
}

// Run from the sources, the worker is TypeScript: the thread first registers tsx's loader, as
// bin/lendbot.js does for the CLI, then imports it. (`execArgv: ['--import', 'tsx']` is not
// honoured by every Node 20.) Compiled (dist/, the container), the worker is JavaScript beside
// this file and needs no loader.
const COMPILED = import.meta.url.endsWith('.js');
const WORKER_URL = new URL(COMPILED ? './tune-worker.js' : './tune-worker.ts', import.meta.url).href;
const BOOTSTRAP = COMPILED
  ? `import(${JSON.stringify(WORKER_URL)});`
  : `import(${JSON.stringify(tsxEsmApiUrl())}).then((tsx) => { tsx.register(); return import(${JSON.stringify(WORKER_URL)}); });`;

/** The ESM entry of tsx's API, from its package exports (require.resolve would give the CommonJS one). */
function tsxEsmApiUrl(): string {
  const manifestPath = createRequire(import.meta.url).resolve('tsx/package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { exports?: Record<string, { import?: { default?: string } }> };
  const entry = manifest.exports?.['./esm/api']?.import?.default ?? './dist/esm/api/index.mjs';
  return pathToFileURL(join(dirname(manifestPath), entry)).href;
}

/** A batch of tasks for a worker: all of them, their groups, and the shared counter of the next group to claim. */
export interface WorkerBatch {
  tasks: readonly TrialTask[];
  groups: readonly (readonly number[])[];
  /** One Int32 in shared memory: the index of the next group to claim (Atomics.add). */
  claim: Int32Array;
}

/** One task done (its index in the batch), or the first failure. */
export type WorkerReply = { ok: true; index: number; outcome: TrialOutcome } | { ok: false; message: string };

/** How many threads run trials: one per core, at most `cap` (this thread and count − 1 worker threads). */
export function workerCount(cap = 8): number {
  return Math.max(1, Math.min(cap, availableParallelism()));
}

/** An evaluator whose trials run on `count` threads: this one and `count` − 1 worker threads reading `source`. */
export function workerPoolEvaluator(
  source: Omit<WorkerInit, 'trials' | 'backtest' | 'objective' | 'rungShares'>,
  count: number,
): (context: TrialContext) => TrialEvaluator {
  return (context) => {
    const init: WorkerInit = {
      ...source,
      trials: context.trials,
      backtest: context.backtest,
      objective: context.objective,
      rungShares: context.rungShares,
    };
    const workers = Array.from({ length: Math.max(0, count - 1) }, () => new Worker(BOOTSTRAP, { eval: true, workerData: init }));
    return {
      evaluate: (tasks, onDone) => runOnThreads(context, workers, tasks, onDone),
      close: async () => {
        await Promise.all(workers.map((w) => w.terminate()));
      },
    };
  };
}

/**
 * Runs a batch on this thread and the workers: each claims the next group (groupTasks: the largest
 * first) from the shared counter until none is left. This thread runs one group at a time and
 * then yields, so the workers' replies (and the progress they tick) are taken in between.
 */
export function runOnThreads(
  context: TrialContext,
  workers: readonly Worker[],
  tasks: readonly TrialTask[],
  onDone: () => void,
): Promise<TrialOutcome[]> {
  return new Promise((resolve, reject) => {
    const results: TrialOutcome[] = new Array<TrialOutcome>(tasks.length);
    if (tasks.length === 0) {
      resolve([]);
      return;
    }
    const groups = groupTasks(context, tasks, workers.length + 1);
    const claim = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
    let finished = 0;
    let settled = false;
    const stop = (): void => {
      settled = true;
      for (const worker of workers) {
        worker.off('message', onMessage);
        worker.off('error', fail);
      }
    };
    const fail = (error: Error): void => {
      if (settled) return;
      stop();
      reject(error);
    };
    const done = (index: number, outcome: TrialOutcome): void => {
      results[index] = outcome;
      finished += 1;
      onDone();
      if (finished === tasks.length && !settled) {
        stop();
        resolve(results);
      }
    };
    const onMessage = (reply: WorkerReply): void => {
      if (settled) return;
      if (reply.ok) done(reply.index, reply.outcome);
      else fail(new Error(`tuning worker failed: ${reply.message}`));
    };
    const runHere = (group: readonly number[] | undefined): void => {
      if (settled || group === undefined) return;
      try {
        runGroup(context, tasks, group).forEach((outcome, k) => done(group[k] as number, outcome));
      } catch (error) {
        fail(error instanceof Error ? error : new Error(String(error)));
        return;
      }
      setImmediate(() => runHere(groups[Atomics.add(claim, 0, 1)]));
    };
    // This thread's first group is claimed before the workers hear of the batch: the first group
    // (the largest) always runs here, and a worker still starting up delays nothing.
    const first = groups[Atomics.add(claim, 0, 1)];
    const batch: WorkerBatch = { tasks, groups, claim };
    for (const worker of workers) {
      worker.on('message', onMessage);
      worker.on('error', fail);
      worker.postMessage(batch);
    }
    runHere(first);
  });
}
