/**
 * A tuning worker thread: rebuilds the trial context from its init data (reads the tune's
 * recording from shared memory, or the file itself, and loads the strategy, so nothing large is
 * copied across threads), then, for each batch of tasks it is sent, claims their groups one after
 * another from the counter it shares with the other threads (worker-pool.ts) and scores them
 * (training trials over columns when the strategy allows, column-trials.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { loadStrategyFile } from '../../engine/index.js';
import { compactRecordingFromShared } from '../compact/shared-compact-recording.js';
import { loadRecording } from '../load-recording.js';
import { timeWindows } from './time-splits.js';
import { runGroup, type TrialContext } from './trial-evaluator.js';
import type { WorkerBatch, WorkerInit, WorkerReply } from './worker-pool.js';

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

const failure = (error: unknown): WorkerReply => ({
  ok: false,
  message: error instanceof Error ? error.message : String(error),
});

// A batch: claim groups (sharing their prices) from the shared counter until none is left; one
// reply per task, as it is done.
port.on('message', ({ tasks, groups, claim }: WorkerBatch) => {
  ready.then(
    (context) => {
      try {
        for (let group = groups[Atomics.add(claim, 0, 1)]; group !== undefined; group = groups[Atomics.add(claim, 0, 1)]) {
          runGroup(context, tasks, group).forEach((outcome, k) =>
            port.postMessage({ ok: true, index: group[k] as number, outcome } satisfies WorkerReply),
          );
        }
      } catch (error) {
        port.postMessage(failure(error));
      }
    },
    (error: unknown) => port.postMessage(failure(error)),
  );
});
