/**
 * A tuning worker thread: rebuilds the trial context from its init data (reads the recording and
 * the strategy itself, so nothing large crosses threads), then scores the tasks it is sent.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { loadStrategyFile } from '../../engine/index.js';
import { loadRecording } from '../prepared-recording.js';
import { timeWindows } from './time-splits.js';
import { runTrial, type TrialContext, type TrialTask } from './trial-evaluator.js';
import type { WorkerInit } from './worker-pool.js';

const init = workerData as WorkerInit;
const port = parentPort;
if (!port) throw new Error('tune-worker.ts runs as a worker thread only');

const ready: Promise<TrialContext> = (async () => {
  const recording = await loadRecording(init.file, init.period, () => undefined);
  const strategy = await loadStrategyFile(init.strategyFile);
  return { strategy, windows: timeWindows(recording, init.split), trials: init.trials, backtest: init.backtest, objective: init.objective };
})();

port.on('message', (task: TrialTask) => {
  ready.then(
    (context) => port.postMessage({ ok: true, outcome: runTrial(context, task) }),
    (error: unknown) => port.postMessage({ ok: false, message: error instanceof Error ? error.message : String(error) }),
  );
});
