/**
 * Backtest and tuning throughput on a generated 100,000-request recording (figures printed, never
 * asserted):  node --import tsx bench/backtest.ts [requests]
 */
import { performance } from 'node:perf_hooks';
import { prepareRecording, runBacktest, tune, workerCount, workerPoolEvaluator } from '../src/backtest/index.js';
import { syntheticLines } from './synthetic-recording.js';
import { loadStrategyFile } from '../src/engine/index.js';

const count = Number(process.argv[2] ?? 100_000);
const lines = syntheticLines(count);
const recording = prepareRecording(lines);
const strategy = await loadStrategyFile(new URL('../strategies/balanced.yaml', import.meta.url).pathname);
const options = { startingBalanceCents: 10_000_000 };
runBacktest(recording, [strategy], options); // warm up
let t0 = performance.now();
const result = runBacktest(recording, [strategy], options);
let seconds = (performance.now() - t0) / 1000;
console.log(
  `backtest: ${count} requests in ${seconds.toFixed(2)} s = ${Math.round(count / seconds)} requests/s (one core; ${result.summary.offers} offers, ${result.summary.funded} funded)`,
);

const trials = 8;
t0 = performance.now();
const report = await tune(recording, strategy, {
  trials,
  seed: 1,
  objective: { objective: 'net_return', maxDefault: 0.1 },
  split: { kind: 'split', trainShare: 0.7 },
  backtest: options,
});
seconds = (performance.now() - t0) / 1000;
const evaluations = trials * Math.round(count * 0.7) + 6 * Math.round(count * 0.3) + 2 * Math.round(count * 0.3);
console.log(
  `tune (in-process): ${trials} trials in ${seconds.toFixed(2)} s = ${(trials / seconds).toFixed(2)} trial-evaluations/s on ${count} requests (${Math.round(evaluations / seconds)} request-evaluations/s); ${report.verdict.split(';')[0] ?? ''}`,
);

// The same tune on worker threads (they read the recording from a file, as `lendbot tune` does).
const { mkdtemp, writeFile, rm } = await import('node:fs/promises');
const { tmpdir } = await import('node:os');
const { join } = await import('node:path');
const dir = await mkdtemp(join(tmpdir(), 'lendbot-bench-'));
const file = join(dir, 'rec.jsonl');
await writeFile(file, lines.map((line) => JSON.stringify(line)).join('\n'));
const threads = workerCount();
const split = { kind: 'split', trainShare: 0.7 } as const;
t0 = performance.now();
await tune(recording, strategy, {
  trials,
  seed: 1,
  objective: { objective: 'net_return', maxDefault: 0.1 },
  split,
  backtest: options,
  evaluator: workerPoolEvaluator({ file, period: {}, strategyFile: strategy.file, split }, threads),
});
seconds = (performance.now() - t0) / 1000;
console.log(
  `tune (${threads} worker threads): ${trials} trials in ${seconds.toFixed(2)} s = ${(trials / seconds).toFixed(2)} trial-evaluations/s (workers load the recording first)`,
);
await rm(dir, { recursive: true, force: true });
