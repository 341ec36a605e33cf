/**
 * Decision quality on several sandbox markets (figures printed, never asserted):
 *
 *   node --import tsx bench/decision-quality.ts [--requests 6000] [--arrivals 3] [--seeds 1,2] [--shapes classic,credit,burden,volatility]
 *                                               [--draws 3] [--trials 40] [--strategy strategies/balanced.yaml]
 *
 * For every shape and seed it exports a recording (--arrivals requests an hour: 6000 at 3 an hour
 * span about 12 weeks, so repaid cash is lent again), then prints:
 * - net annualized return on the capital (mean of --draws market draws, idle cash included) of
 *   the default strategy, of the naive baseline (strategies/examples/naive.yaml) and of the
 *   oracle that knows every outcome (purely greedy, and the best of it with a hurdle of 0 to 0.4
 *   a year: the ceiling), on the whole recording, with funded loans;
 * - the held-out AUC of `lendbot train`'s model (first 70 % fits, last 30 % judges);
 * - tune on the first 70 %: the verdict, and the held-out gain on the last 30 % with its interval;
 * - on the last 30 %: the default strategy against strategies/examples/trained.yaml with a model
 *   trained on the first 70 % only.
 * The balance is the backtest's default for the recording (docs/backtesting.md).
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { defaultBalance, runDraws, tune, type PreparedRecording } from '../src/backtest/index.js';
import { oracleStrategy } from '../src/backtest/oracle-strategy.js';
import { featureList, trainingData, trainModel } from '../src/backtest/train/index.js';
import { sliceRecording } from '../src/backtest/prepared-recording.js';
import { loadStrategyFile, type CompiledStrategy } from '../src/engine/index.js';
import { MARKET_GRID_OPTIONS, marketGrid, marketRecordings } from './market-grid.js';

const { values } = parseArgs({
  options: {
    ...MARKET_GRID_OPTIONS,
    trials: { type: 'string', default: '40' },
    strategy: { type: 'string', default: 'strategies/balanced.yaml' },
  },
});
const grid = marketGrid(values);
const { requests, draws } = grid;
const trials = Number(values.trials);
const TRAIN_SHARE = 0.7;
const ORACLE_HURDLES = [0, 0.1, 0.2, 0.3, 0.4];

const pct = (x: number): string => `${(x * 100).toFixed(1)} %`;

function netReturn(recording: PreparedRecording, strategy: CompiledStrategy, balanceCents: number): { mean: number; funded: number } {
  const { draws: summary } = runDraws(recording, [strategy], { startingBalanceCents: balanceCents }, draws);
  return { mean: summary.netAnnualizedReturn.mean, funded: Math.round(summary.funded.mean) };
}

const dir = mkdtempSync(join(tmpdir(), 'lendbot-dq-'));

/** strategies/examples/trained.yaml with a model fitted on `recording` only (written beside it). */
async function trainedStrategy(recording: PreparedRecording, dataFile: string): Promise<CompiledStrategy> {
  const report = trainModel(trainingData(recording, featureList(undefined)), { dataFile, l2: 'auto', trainShare: TRAIN_SHARE });
  mkdirSync(join(dir, 'models'), { recursive: true });
  mkdirSync(join(dir, 'strategies', 'examples'), { recursive: true });
  writeFileSync(join(dir, 'models', 'market.json'), JSON.stringify(report.model));
  const file = join(dir, 'strategies', 'examples', 'trained.yaml');
  copyFileSync('strategies/examples/trained.yaml', file);
  return loadStrategyFile(file);
}
const defaultStrategy = await loadStrategyFile(values.strategy);
const naive = await loadStrategyFile('strategies/examples/naive.yaml');
const rows: string[][] = [];
try {
  for await (const { shape, seed, file, recording } of marketRecordings(grid, dir)) {
    const balance = defaultBalance(recording).cents;
    const mine = netReturn(recording, defaultStrategy, balance);
    const base = netReturn(recording, naive, balance);
    // The oracle knows every outcome, so it may as well know which hurdle suits this market:
    // the best of several is the ceiling (a purely greedy one, hurdle 0, lends its cash to the
    // first good borrowers and earns far less when the balance is scarce).
    const oracles = ORACLE_HURDLES.map((hurdle) => netReturn(recording, oracleStrategy(recording, undefined, hurdle), balance));
    const oracle = oracles.reduce((best, next) => (next.mean > best.mean ? next : best));
    const greedy = oracles[0] ?? oracle;

    const model = trainModel(trainingData(recording, featureList(undefined)), { dataFile: file, l2: 'auto', trainShare: TRAIN_SHARE });

    const cut = Math.round(recording.entries.length * TRAIN_SHARE);
    const head = sliceRecording(recording, 0, cut);
    const tail = sliceRecording(recording, cut, recording.entries.length);
    const trained = await trainedStrategy(head, file);
    const tailDefault = netReturn(tail, defaultStrategy, balance);
    const tailTrained = netReturn(tail, trained, balance);
    const report = await tune(recording, defaultStrategy, {
      trials,
      seed: 1,
      objective: { objective: 'net_return', maxDefault: 0.1 },
      split: { kind: 'split', trainShare: TRAIN_SHARE },
      backtest: { startingBalanceCents: defaultBalance(sliceRecording(recording, 0, cut)).cents },
    });
    const points = (x: number): string => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(2)}`;
    const { heldOut } = report;
    const tuned = `${report.improved ? 'accepted' : 'refused'} ${points(heldOut.gain)} [${points(heldOut.low)}, ${points(heldOut.high)}] (${heldOut.requests} requests, ${heldOut.candidateFunded}/${heldOut.baselineFunded} loans)`;
    rows.push([
      shape,
      String(seed),
      `${pct(mine.mean)} (${mine.funded})`,
      `${pct(base.mean)} (${base.funded})`,
      `${pct(greedy.mean)} (${greedy.funded})`,
      `${pct(oracle.mean)} (${oracle.funded})`,
      oracle.mean > 0 ? `${Math.round((mine.mean / oracle.mean) * 100)} %` : 'n/a',
      model.test.auc === null ? 'n/a' : model.test.auc.toFixed(3),
      tuned,
      `${pct(tailDefault.mean)} (${tailDefault.funded})`,
      `${pct(tailTrained.mean)} (${tailTrained.funded})`,
    ]);
    console.error(`done ${shape} seed ${seed}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

console.log(`${requests} requests per market, ${draws.length} draws each; net annualized return on the capital (funded loans)`);
console.log(
  ['shape', 'seed', 'default', 'naive', 'greedy oracle', 'best oracle', 'default/best oracle', 'AUC (held out)', 'tune: held-out gain, points [95 %]', 'last 30 %: default', 'last 30 %: trained'].join(' | '),
);
for (const row of rows) console.log(row.join(' | '));
