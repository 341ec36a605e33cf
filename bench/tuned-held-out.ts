/**
 * Tuned against untuned, held out, judged with recorded acceptance (figures printed, never asserted):
 *
 *   node --import tsx bench/tuned-held-out.ts [--requests 6000] [--arrivals 3] [--seeds 1,2]
 *       [--shapes classic,shoppers,urgent] [--trials 60] [--strategy strategies/balanced.yaml]
 *
 * For every shape and seed it exports a sandbox recording (bench/market-grid.ts), whose lines
 * carry each borrower's reservation rate, and runs `lendbot tune`'s path on it (a 0.7 split,
 * net_return, the backtest's default balance for the whole recording, the worker pool on one
 * thread per core, seed 1): the search sees only the first 70 %. It then backtests the strategy
 * as shipped and with the tuned values (the best training trial, whether or not tune would write
 * it) on the last 30 %, where each line's reservation_rate decides acceptance (docs/backtesting.md,
 * "Recorded acceptance"), not the take-up curve the pricing assumed. Per market: both net
 * annualized returns with funded loans, the difference, tune's own held-out gain with its 95 %
 * interval, and its verdict (it writes the tuned values only when that interval is above zero).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { performance } from 'node:perf_hooks';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { defaultBalance, runBacktest, tune, workerCount, workerPoolEvaluator, type PreparedRecording } from '../src/backtest/index.js';
import { sliceRecording } from '../src/backtest/prepared-recording.js';
import { loadStrategyFile, type CompiledStrategy } from '../src/engine/index.js';
import { MARKET_GRID_OPTIONS, marketGrid, marketRecordings } from './market-grid.js';

const { values } = parseArgs({
  options: {
    ...MARKET_GRID_OPTIONS,
    shapes: { type: 'string', default: 'classic,shoppers,urgent' },
    trials: { type: 'string', default: '60' },
    strategy: { type: 'string', default: 'strategies/balanced.yaml' },
  },
});
const grid = marketGrid(values);
const trials = Number(values.trials);
const TRAIN_SHARE = 0.7;
const split = { kind: 'split', trainShare: TRAIN_SHARE } as const;
const objective = { objective: 'net_return', maxDefault: 0.1 } as const;
const threads = workerCount();

const pct = (x: number): string => `${(x * 100).toFixed(1)} %`;
const points = (x: number): string => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(2)}`;

/** One backtest of `strategy` on the held-out part, as tune's own held-out run (recorded acceptance decides). */
function heldOut(recording: PreparedRecording, strategy: CompiledStrategy, startingBalanceCents: number): { ret: number; funded: number } {
  const { summary } = runBacktest(recording, [strategy], { startingBalanceCents, recordDecisions: false });
  return { ret: summary.netAnnualizedReturn, funded: summary.funded };
}

const started = performance.now();
const strategy = await loadStrategyFile(values.strategy);
const dir = mkdtempSync(join(tmpdir(), 'lendbot-tuned-'));
const rows: string[][] = [];
try {
  for await (const { shape, seed, file, recording } of marketRecordings(grid, dir)) {
    const balance = defaultBalance(recording).cents;
    const cut = Math.round(recording.entries.length * TRAIN_SHARE);
    const test = sliceRecording(recording, cut, recording.entries.length);
    const recorded = test.entries.filter((entry) => entry.line.outcome?.reservation_rate !== undefined).length;
    if (recorded !== test.entries.length)
      throw new Error(`${shape} seed ${seed}: ${test.entries.length - recorded} held-out lines without reservation_rate`);
    const report = await tune(recording, strategy, {
      trials,
      seed: 1,
      objective,
      split,
      backtest: { startingBalanceCents: balance },
      evaluator: workerPoolEvaluator({ file, period: {}, strategyFile: strategy.file, split }, threads),
    });
    const window = report.windows[0];
    const best = window?.top[0];
    if (!window || !best) throw new Error(`${shape} seed ${seed}: tune reported no window`);
    const untuned = heldOut(test, strategy, balance);
    const tuned = heldOut(test, strategy.withParams(best.params), balance);
    // Our backtests are tune's held-out runs; say so if they ever disagree.
    const agree =
      Math.abs(untuned.ret - (window.baseline.testFigures?.netAnnualizedReturn ?? Number.NaN)) < 1e-12 &&
      Math.abs(tuned.ret - (best.testFigures?.netAnnualizedReturn ?? Number.NaN)) < 1e-12;
    const h = report.heldOut;
    rows.push([
      shape,
      String(seed),
      `${pct(untuned.ret)} (${untuned.funded})`,
      best.trial === 0 ? 'untuned (no trial beat it in training)' : `${pct(tuned.ret)} (${tuned.funded})`,
      points(tuned.ret - untuned.ret),
      `${points(report.trainGain)}`,
      `${points(h.gain)} [${points(h.low)}, ${points(h.high)}]`,
      `${report.improved ? 'writes tuned' : 'keeps untuned'}${agree ? '' : " (differs from tune's own held-out runs)"}`,
    ]);
    console.error(`done ${shape} seed ${seed} (${((performance.now() - started) / 1000).toFixed(0)} s)`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const seconds = (performance.now() - started) / 1000;

console.log(
  `node --import tsx bench/tuned-held-out.ts --requests ${grid.requests} --arrivals ${grid.arrivalsPerHour} --seeds ${grid.seeds.join(',')} --shapes ${grid.shapes.join(',')} --trials ${trials} --strategy ${values.strategy}`,
);
console.log(
  `${grid.requests} requests per market; ${values.strategy} tuned (${trials} trials, net_return, seed 1, ${threads} threads) on the first ${TRAIN_SHARE * 100} %, both backtested on the last ${Math.round((1 - TRAIN_SHARE) * 100)} % with recorded acceptance; net annualized return (loans funded); gains in points; run time ${seconds.toFixed(0)} s`,
);
console.log('');
console.log(
  "| shape | seed | untuned, held out | tuned, held out | tuned − untuned | training gain | tune's held-out gain [95 %] | tune's verdict |",
);
console.log('|---|---|---|---|---|---|---|---|');
for (const row of rows) console.log(`| ${row.join(' | ')} |`);
