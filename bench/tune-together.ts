/**
 * Tune's full-backtest trials replayed together (figures printed, never asserted):
 *   node --expose-gc --import tsx bench/tune-together.ts FILE [trials] [share]
 *
 * Reads FILE (a recording, such as a `lendbot sandbox export`), takes the last `share` (default
 * 1) of a 0.7 split's training period, as a halving rung does, and replays `trials` (default 8)
 * trials of strategies/balanced.yaml on it twice in this thread, after one warm-up replay: one
 * after another, then together (runTrialsByBacktest, as a tune's thread runs a bundle). Prints the
 * CPU of each way and the live heap the replays held above what was live before them (measured
 * after a full collection every 10,000 requests): what each replay beside the first costs.
 */
import { loadRecording } from '../src/backtest/load-recording.js';
import { defaultBalance } from '../src/backtest/default-balance.js';
import { sliceRecording } from '../src/backtest/prepared-recording.js';
import { runBacktestsTogether, type BacktestRun } from '../src/backtest/run-backtest.js';
import { sampleTrials } from '../src/backtest/tune/param-space.js';
import { timeWindows } from '../src/backtest/tune/time-splits.js';
import { seededRandom } from '../src/engine/market/seeded-normals.js';
import { loadStrategyFile } from '../src/engine/index.js';

const [file, trialsText, shareText] = process.argv.slice(2);
if (file === undefined) throw new Error('usage: node --expose-gc --import tsx bench/tune-together.ts FILE [trials] [share]');
const exposedGc = (globalThis as { gc?: () => void }).gc;
if (exposedGc === undefined) throw new Error('run with node --expose-gc');
const gc: () => void = exposedGc;
const count = Number(trialsText ?? 8);
const share = Number(shareText ?? 1);

const recording = await loadRecording(file, {}, () => undefined);
const strategy = await loadStrategyFile(new URL('../strategies/balanced.yaml', import.meta.url).pathname);
const train = timeWindows(recording, { kind: 'split', trainShare: 0.7 })[0]?.train;
if (train === undefined) throw new Error('no training period');
const n = train.entries.length;
const period = sliceRecording(train, n - Math.ceil(n * share), n);
const trials = sampleTrials(strategy.paramSpecs, strategy.params, count + 1, seededRandom(1));
const backtest = { startingBalanceCents: defaultBalance(recording).cents, recordDecisions: false };

/** The replays of trials 1..count, the first one watching the live heap. */
function runs(watch: { peak: number; base: number; read: number }): BacktestRun[] {
  return trials.slice(1).map((params, index) => ({
    strategies: [strategy.withParams(params)],
    options: {
      ...backtest,
      ...(index === 0
        ? {
            onRead: () => {
              watch.read += 1;
              if (watch.read % 10_000 !== 0) return;
              gc();
              watch.peak = Math.max(watch.peak, process.memoryUsage().heapUsed - watch.base);
            },
          }
        : {}),
    },
  }));
}

function measure(together: boolean): { cpuS: number; liveMB: number } {
  gc();
  const watch = { peak: 0, base: process.memoryUsage().heapUsed, read: 0 };
  const before = process.cpuUsage();
  const all = runs(watch);
  if (together) runBacktestsTogether(period, all);
  else for (const run of all) runBacktestsTogether(period, [run]);
  const cpu = process.cpuUsage(before);
  return { cpuS: (cpu.user + cpu.system) / 1e6, liveMB: watch.peak / 1024 / 1024 };
}

// Warm-up: the first replay compiles the hot code.
runBacktestsTogether(period, [{ strategies: [strategy.withParams(trials[0] ?? {})], options: backtest }]);
const alone = measure(false);
const together = measure(true);
const line = (label: string, m: { cpuS: number; liveMB: number }): string =>
  `${label.padEnd(26)} CPU ${m.cpuS.toFixed(2)} s (${(m.cpuS / count).toFixed(2)} s a trial), live heap at most ${m.liveMB.toFixed(1)} MB`;
console.log(
  `${count} trials of balanced on ${period.entries.length.toLocaleString('en-US')} requests (the last ${share} of the training period)`,
);
console.log(line('one after another', alone));
console.log(line('together', together));
console.log(`together / one after another: CPU ${(together.cpuS / alone.cpuS).toFixed(2)}`);
