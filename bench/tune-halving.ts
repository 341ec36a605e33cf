/**
 * How well successive halving's short rungs predict the whole training period (figures printed,
 * never asserted): every trial of a tune is scored on the last third, ninth and twenty-seventh
 * of the training period and on all of it, in this thread; printed are the rank correlation
 * (Spearman) of each part's scores with the whole period's, and what halving would have picked
 * against the best trial of the whole period (its rank there and the training score it gives up).
 *
 * Run: node --import tsx bench/tune-halving.ts [--data FILE] [--trials 81] [--strategy strategies/balanced.yaml]
 *   --data  a recording (default: a 50,000-request `lendbot sandbox export` kept in the temp
 *           folder, as bench/backtest-memory.ts makes it)
 */
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { defaultBalance, loadRecording } from '../src/backtest/index.js';
import { sampleTrials } from '../src/backtest/tune/param-space.js';
import { seededRandom } from '../src/engine/market/seeded-normals.js';
import { HALVING_ETA, promote } from '../src/backtest/tune/successive-halving.js';
import { timeWindows } from '../src/backtest/tune/time-splits.js';
import { runTrial, type TrialContext } from '../src/backtest/tune/trial-evaluator.js';
import { loadStrategyFile } from '../src/engine/index.js';

const { values } = parseArgs({
  options: {
    data: { type: 'string', default: join(tmpdir(), 'lendbot-bench-recordings', 'sandbox-50000.jsonl') },
    trials: { type: 'string', default: '81' },
    strategy: { type: 'string', default: 'strategies/balanced.yaml' },
  },
});
const file = values.data ?? '';
if (!existsSync(file)) {
  console.error(`no recording at ${file}: make one with lendbot sandbox export, or run bench/backtest-memory.ts once`);
  process.exit(2);
}
const recording = await loadRecording(file, {}, () => undefined);
const strategy = await loadStrategyFile(values.strategy ?? '');
const split = { kind: 'split', trainShare: 0.7 } as const;
const shares = [1 / 27, 1 / 9, 1 / 3, 1];
const context: TrialContext = {
  strategy,
  windows: timeWindows(recording, split),
  trials: sampleTrials(strategy.paramSpecs, strategy.params, Number(values.trials), seededRandom(1)),
  backtest: { startingBalanceCents: defaultBalance(recording).cents },
  objective: { objective: 'net_return', maxDefault: 0.1 },
  rungShares: shares,
};
const trainRequests = context.windows[0]?.train.entries.length ?? 0;
console.log(
  `${file}: ${recording.entries.length} requests, ${trainRequests} in training; ${context.trials.length} trials of ${strategy.name}`,
);

// Every trial on every part (the last part is the whole period).
const scores = shares.map((_, rung) => {
  const began = process.cpuUsage();
  const part = context.trials.map(
    (__, trial) => runTrial(context, { trial, window: 0, part: 'train', ...(rung < 3 ? { rung } : {}) }).score,
  );
  const cpu = process.cpuUsage(began);
  console.log(
    `  part ${(shares[rung] as number).toFixed(3)}: ${((cpu.user + cpu.system) / 1e6 / context.trials.length).toFixed(3)} s of CPU a trial`,
  );
  return part;
});

/** Ranks (0 = best), ties in order. */
function ranks(values: readonly number[]): number[] {
  const order = values.map((v, i) => ({ v, i })).sort((a, b) => b.v - a.v || a.i - b.i);
  const rank = new Array<number>(values.length);
  order.forEach(({ i }, r) => (rank[i] = r));
  return rank;
}
function spearman(a: readonly number[], b: readonly number[]): number {
  const [ra, rb] = [ranks(a), ranks(b)];
  const n = a.length;
  const d2 = ra.reduce((sum, r, i) => sum + (r - (rb[i] as number)) ** 2, 0);
  return 1 - (6 * d2) / (n * (n * n - 1));
}
const whole = scores[3] as number[];
const best = ranks(whole).indexOf(0);
for (let rung = 0; rung < 3; rung += 1)
  console.log(
    `  Spearman of part ${(shares[rung] as number).toFixed(3)} with the whole period: ${spearman(scores[rung] as number[], whole).toFixed(2)}`,
  );

// Halving as the tuner does it from each first rung: keep a third a rung, the last on the whole period.
for (const first of [2, 1, 0]) {
  let alive = context.trials.map((_, trial) => trial);
  for (let rung = first; rung < 3; rung += 1) {
    const keep = Math.ceil(alive.length / HALVING_ETA);
    alive = promote(
      alive.map((trial) => ({ trial, score: (scores[rung] as number[])[trial] as number })),
      keep,
    );
  }
  const picked = alive.reduce((a, b) => ((whole[b] as number) > (whole[a] as number) || (whole[b] === whole[a] && b < a) ? b : a));
  const pts = (v: number): string => `${(v * 100).toFixed(2)}%`;
  console.log(
    `  halving from part ${(shares[first] as number).toFixed(3)} (${3 - first + 1} rungs): picks trial ${picked} ` +
      `(rank ${(ranks(whole)[picked] as number) + 1} of ${whole.length} on the whole period, ${pts(whole[picked] as number)}); ` +
      `the best is trial ${best} (${pts(whole[best] as number)}); the current values ${pts(whole[0] as number)}`,
  );
}
