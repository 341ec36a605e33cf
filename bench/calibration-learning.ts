/**
 * Does the learned default level learn? (figures printed, never asserted)
 *
 *   node --import tsx bench/calibration-learning.ts [--requests 3000] [--arrivals 1] [--seeds 1,2]
 *     [--shapes classic,credit,burden,volatility] [--offsets 0.4,1,2.5] [--strategy strategies/examples/balanced-learned.yaml]
 *     [--uncertainty file|none|cost_plus_floor|blend]
 *
 * For every sandbox shape and seed it exports a recording (a few months of requests at a slow
 * arrival rate, so funded loans pay instalments while requests still come), and backtests the
 * learned strategy from a prior whose centre is off by each `--offsets` factor of the odds of
 * default (x1: the score's own level; x0.4: the prior believes default 2.5 times less likely,
 * x2.5 more), then prints, over the loans funded in the second half of the requests' span (the
 * learner has followed the first half's payments): n, the mean default they were priced with,
 * what the prior alone would have said, and what happened; the learner's final level and slope
 * with the evidence it rests on; and the run's funded loans and annualised return. The shipped
 * `balanced` runs on the same recording for comparison (its predicted default is its isotonic
 * map's, read from the decisions). `--uncertainty` replaces the file's `pricing.level_uncertainty`
 * (none: expected profit at the learned level alone; blend: its defaults), to compare the modes.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { parse, stringify } from 'yaml';
import { runBacktest, type BacktestResult } from '../src/backtest/index.js';
import { learnedLevelCheck } from '../src/backtest/calibration/index.js';
import { loadStrategyFile } from '../src/engine/index.js';
import { MarketLearning } from '../src/engine/market/index.js';
import { MARKET_GRID_OPTIONS, marketGrid, marketRecordings } from './market-grid.js';

const { values } = parseArgs({
  options: {
    ...MARKET_GRID_OPTIONS,
    requests: { type: 'string', default: '3000' },
    arrivals: { type: 'string', default: '1' },
    offsets: { type: 'string', default: '0.4,1,2.5' },
    strategy: { type: 'string', default: 'strategies/examples/balanced-learned.yaml' },
    balance: { type: 'string', default: '100000' },
    uncertainty: { type: 'string', default: 'file' },
  },
});
const grid = marketGrid(values);
const offsets = values.offsets.split(',').map(Number);
const startingBalanceCents = Number(values.balance) * 100;
const pct = (value: number): string => (Number.isFinite(value) ? (value * 100).toFixed(1) : '-');

/** The learned strategy with its prior centre moved by log(factor). */
async function learnedWithOffset(dir: string, factor: number) {
  const doc = parse(readFileSync(values.strategy, 'utf8')) as {
    score: { calibration: Record<string, unknown> };
    pricing: Record<string, unknown>;
  };
  doc.score.calibration = { ...doc.score.calibration, level_mean: Math.log(factor) };
  if (values.uncertainty === 'none') delete doc.pricing['level_uncertainty'];
  else if (values.uncertainty !== 'file') doc.pricing['level_uncertainty'] = { mode: values.uncertainty };
  const file = join(dir, `learned-x${factor}.yaml`);
  writeFileSync(file, stringify(doc));
  return loadStrategyFile(file);
}

/** The shipped balanced's predicted default on its second-half funded loans (from its decisions). */
function shippedCheck(result: BacktestResult): { n: number; predicted: number; realised: number } {
  const from = Date.parse(result.period.from ?? '');
  const middle = from + (Date.parse(result.period.to ?? '') - from) / 2;
  const probability = new Map(result.decisions.map((decision) => [decision.loan_request_id, decision.probability]));
  const late = result.loans.filter((loan) => loan.outcome !== 'open' && Date.parse(loan.fundedAt) >= middle);
  const predicted = late.reduce((sum, loan) => sum + (1 - (probability.get(loan.loanRequestId) ?? 1)), 0);
  const defaulted = late.filter((loan) => loan.outcome === 'defaulted').length;
  return { n: late.length, predicted: predicted / late.length, realised: defaulted / late.length };
}

console.log(
  `${grid.requests} requests per market at ${grid.arrivalsPerHour} an hour, ${values.balance} USD, level uncertainty ${values.uncertainty}; second half: default in % (n loans)`,
);
console.log(
  [
    'shape',
    'seed',
    'strategy',
    'n',
    'priced with',
    'prior alone',
    'realised',
    'final a, b (loans, defaults, loan-months)',
    'funded',
    'return',
  ].join(' | '),
);
const dir = mkdtempSync(join(tmpdir(), 'lendbot-bench-calibration-learning-'));
try {
  const shipped = await loadStrategyFile('strategies/balanced.yaml');
  const learned = await Promise.all(offsets.map((factor) => learnedWithOffset(dir, factor)));
  for await (const { shape, seed, recording } of marketRecordings(grid, dir)) {
    const base = runBacktest(recording, [shipped], { startingBalanceCents, recordDecisions: true });
    const check = shippedCheck(base);
    const row = (name: string, n: number, priced: string, prior: string, realised: string, final: string, result: BacktestResult): void =>
      console.log(
        [shape, seed, name, n, priced, prior, realised, final, result.summary.funded, pct(result.summary.netAnnualizedReturn)].join(' | '),
      );
    row('balanced (isotonic)', check.n, pct(check.predicted), '-', pct(check.realised), '-', base);
    offsets.forEach((factor, i) => {
      const strategy = learned[i]!;
      const learning = new MarketLearning();
      const result = runBacktest(recording, [strategy], { startingBalanceCents, learning });
      const late = learnedLevelCheck(result, strategy.name, Math.log(factor));
      const learner = learning.calibration.existing(strategy.name);
      const [a = 0, b = 1] = learner?.posterior.mean ?? [];
      const evidence = learner?.evidence;
      const final = `${a.toFixed(2)}, ${b.toFixed(2)} (${evidence?.loans ?? 0}, ${evidence?.defaults ?? 0}, ${evidence?.loanMonths ?? 0})`;
      row(`learned, prior x${factor}`, late.n, pct(late.predicted), pct(late.prior), pct(late.realised), final, result);
    });
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
