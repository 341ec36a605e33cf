/**
 * A tuning worker thread: rebuilds the trial context from its init data (reads the tune's
 * recording from shared memory, or the file itself, and loads the strategy, so nothing large is
 * copied across threads), then scores the groups of tasks it is
 * sent (training trials over columns when the strategy allows, column-trials.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { loadStrategyFile } from '../../engine/index.js';
import { compactRecordingFromShared } from '../compact/shared-compact-recording.js';
import { loadRecording } from '../load-recording.js';
import { timeWindows } from './time-splits.js';
import { runTrial, type TrialContext, type TrialTask } from './trial-evaluator.js';
import type { WorkerInit } from './worker-pool.js';

const init = workerData as WorkerInit;
const port = parentPort;
if (!port) throw new Error('tune-worker.ts runs as a worker thread only');

const ready: Promise<TrialContext> = (async () => {
  const recording = init.recording
    ? compactRecordingFromShared(init.recording)
    : await loadRecording(init.file, init.period, () => undefined);
  const strategy = await loadStrategyFile(init.strategyFile);
  const { trials, backtest, objective, rungShares } = init;
  return { strategy, windows: timeWindows(recording, init.split), trials, backtest, objective, ...(rungShares ? { rungShares } : {}) };
})();

const failure = (error: unknown): { ok: false; message: string } => ({
  ok: false,
  message: error instanceof Error ? error.message : String(error),
});

// A group of tasks (sharing their prices); one reply per task, in the group's order.
port.on('message', (tasks: TrialTask[]) => {
  ready.then(
    (context) => {
      try {
        for (const task of tasks) port.postMessage({ ok: true, outcome: runTrial(context, task) });
      } catch (error) {
        port.postMessage(failure(error));
      }
    },
    (error: unknown) => port.postMessage(failure(error)),
  );
});
