/**
 * Tuning on every core: worker threads each read the recording (the tune's own, in shared memory:
 * shared-compact-recording.ts) and load the strategy once, then take
 * groups of trial tasks that share their prices (trials with the same pricing params, on the
 * same window) as they finish, so each price is computed by one worker and slow and fast groups
 * balance out. Results are put back in task order, so a tune gives the same report with or
 * without workers.
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
import { groupTasks, type TrialContext, type TrialEvaluator, type TrialOutcome, type TrialTask } from './trial-evaluator.js';

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

type WorkerReply = { ok: true; outcome: TrialOutcome } | { ok: false; message: string };

/** How many workers to use: one per core, at most `cap`. */
export function workerCount(cap = 8): number {
  return Math.max(1, Math.min(cap, availableParallelism()));
}

/** An evaluator backed by `count` worker threads reading `source`. */
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
    const workers = Array.from({ length: count }, () => new Worker(BOOTSTRAP, { eval: true, workerData: init }));
    return {
      evaluate: (tasks, onDone) => runOnWorkers(workers, groupTasks(context, tasks), tasks, onDone),
      close: async () => {
        await Promise.all(workers.map((w) => w.terminate()));
      },
    };
  };
}

/**
 * Hands out groups of tasks (groupTasks), the largest first, each to the next free worker: the
 * trials of one group share their prices, which the worker then computes once.
 */
function runOnWorkers(
  workers: readonly Worker[],
  groups: readonly number[][],
  tasks: readonly TrialTask[],
  onDone: () => void,
): Promise<TrialOutcome[]> {
  return new Promise((resolve, reject) => {
    const results: TrialOutcome[] = new Array<TrialOutcome>(tasks.length);
    let next = 0;
    let finished = 0;
    let failed = false;
    if (tasks.length === 0) {
      resolve([]);
      return;
    }
    const fail = (error: Error): void => {
      if (failed) return;
      failed = true;
      reject(error);
    };
    const feed = (worker: Worker): void => {
      const group = groups[next++];
      if (group === undefined) return;
      let received = 0;
      const onMessage = (reply: WorkerReply): void => {
        if (failed) return;
        if (!reply.ok) {
          fail(new Error(`tuning worker failed: ${reply.message}`));
          return;
        }
        results[group[received] as number] = reply.outcome;
        received += 1;
        finished += 1;
        onDone();
        if (received < group.length) return;
        worker.off('message', onMessage);
        worker.off('error', fail);
        if (finished === tasks.length) resolve(results);
        else feed(worker);
      };
      worker.on('message', onMessage);
      worker.on('error', fail);
      worker.postMessage(group.map((index) => tasks[index]));
    };
    for (const worker of workers) feed(worker);
  });
}
