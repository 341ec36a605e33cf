/**
 * Tuning speed (figures printed, never asserted):
 *   node --import tsx bench/tune.ts [trials] [requests] [workers]
 *
 * Runs `lendbot tune`'s path (the recording read from a file, strategies/balanced.yaml as shipped,
 * a 0.7 split, the worker pool on one thread per core) twice: with `trials` and with a quarter of
 * them. The two times give the per-trial cost and the fixed cost (start-up, loading), hence the
 * time of 1,000 trials; when `requests` is not 100,000 the per-trial cost is scaled to 100,000,
 * and the line says it is a projection. The baseline printed beside it is one backtest of the
 * same recording in this thread: a trial replays 70 % of it. Before the tune, one training trial
 * is timed in this thread both ways: as a full backtest (the baseline) and over columns
 * (docs/backtesting.md, "How training trials run").
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadRecording, runBacktest, tune, workerCount, workerPoolEvaluator } from '../src/backtest/index.js';
import { columnRunner } from '../src/backtest/tune/column-trials.js';
import { sampleTrials } from '../src/backtest/tune/param-space.js';
import { seededRandom } from '../src/engine/market/seeded-normals.js';
import { timeWindows } from '../src/backtest/tune/time-splits.js';
import { groupTasks, runTrial, runTrialByBacktest } from '../src/backtest/tune/trial-evaluator.js';
import { loadStrategyFile } from '../src/engine/index.js';
import { syntheticLines, writeLines } from './synthetic-recording.js';

const trials = Number(process.argv[2] ?? 100);
const count = Number(process.argv[3] ?? 100_000);
const threads = Number(process.argv[4] ?? workerCount());
const dir = await mkdtemp(join(tmpdir(), 'lendbot-tune-'));
const file = join(dir, 'rec.jsonl');
await writeLines(file, syntheticLines(count));
const strategy = await loadStrategyFile(new URL('../strategies/balanced.yaml', import.meta.url).pathname);
const backtest = { startingBalanceCents: 10_000_000 };
const split = { kind: 'split', trainShare: 0.7 } as const;

/** `lendbot tune`, timed from reading the file to the report. */
async function timedTune(n: number): Promise<{ seconds: number; verdict: string }> {
  const t0 = performance.now();
  const recording = await loadRecording(file, {}, () => undefined);
  const report = await tune(recording, strategy, {
    trials: n,
    seed: 1,
    objective: { objective: 'net_return', maxDefault: 0.1 },
    split,
    backtest,
    evaluator: workerPoolEvaluator({ file, period: {}, strategyFile: strategy.file, split }, threads),
  });
  return { seconds: (performance.now() - t0) / 1000, verdict: report.verdict.split(';')[0] ?? '' };
}

const recording = await loadRecording(file, {}, () => undefined);
runBacktest(recording, [strategy], backtest); // warm up
const t0 = performance.now();
runBacktest(recording, [strategy], backtest);
const backtestSeconds = (performance.now() - t0) / 1000;

// One training trial in this thread, both ways: as a full backtest (every trial before the
// column path, and still for strategies it cannot represent) and over columns.
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const inThread = {
  strategy,
  windows: timeWindows(recording, split),
  trials: sampleTrials(strategy.paramSpecs, strategy.params, 200, seededRandom(1)),
  backtest,
  objective: { objective: 'net_return', maxDefault: 0.1 } as const,
};
const timed = (run: () => void): number => {
  const t = performance.now();
  run();
  return performance.now() - t;
};
const byBacktest = [1, 2, 3].map((trial) => timed(() => runTrialByBacktest(inThread, { trial, window: 0, part: 'train' })));
const columnsMs = timed(() => columnRunner(inThread, 0));
const tasks = inThread.trials.map((_, trial) => ({ trial, window: 0, part: 'train' as const }));
const groups = groupTasks(inThread, tasks);
const firstOfGroup: number[] = [];
const reused: number[] = [];
for (const group of groups.slice(0, 6))
  group.forEach((index, k) =>
    (k === 0 ? firstOfGroup : reused).push(timed(() => runTrial(inThread, tasks[index] as (typeof tasks)[number]))),
  );
console.log(`one training trial (${inThread.windows[0]?.train.entries.length} requests) in this thread:`);
console.log(`  baseline: as a full backtest ${median(byBacktest).toFixed(0)} ms (median of 3)`);
console.log(
  `  lendbot: over columns ${median(reused).toFixed(1)} ms (median of ${reused.length}; ${(median(byBacktest) / median(reused)).toFixed(0)}x faster), ` +
    `${median(firstOfGroup).toFixed(0)} ms for the first trial of a pricing value (median of ${firstOfGroup.length}; prices computed), columns built once in ${columnsMs.toFixed(0)} ms`,
);

const few = Math.max(1, Math.round(trials / 4));
const small = await timedTune(few);
const large = await timedTune(trials);
const perTrial = Math.max(0, (large.seconds - small.seconds) / (trials - few));
const fixed = Math.max(0, large.seconds - perTrial * trials);
const scale = 100_000 / count;
const projected = fixed * scale + perTrial * scale * 1000;
console.log(`tune on ${threads} worker threads, ${count} requests (0.7 split), balanced.yaml:`);
console.log(`  baseline: one backtest of the ${count} requests in this thread: ${backtestSeconds.toFixed(3)} s`);
console.log(
  `  lendbot: ${trials} trials x ${count} requests in ${large.seconds.toFixed(2)} s (measured); ${few} trials in ${small.seconds.toFixed(2)} s (measured); ${large.verdict}`,
);
console.log(
  `  per trial ${(perTrial * 1000).toFixed(1)} ms of wall time on ${threads} threads (${((perTrial * threads) / backtestSeconds).toFixed(3)} of a backtest per core), fixed ${fixed.toFixed(2)} s`,
);
if (trials === 1000 && count === 100_000) console.log(`  1,000 trials x 100,000 requests: ${large.seconds.toFixed(1)} s (measured)`);
else
  console.log(
    `  1,000 trials x 100,000 requests: ${projected.toFixed(1)} s (PROJECTION from the per-trial and fixed costs above${scale === 1 ? '' : ', scaled linearly in requests'})`,
  );
await rm(dir, { recursive: true, force: true });
