/**
 * How honest are the strategies' probabilities? (figures printed, never asserted)
 *
 *   node --import tsx bench/calibration.ts [--requests 6000] [--arrivals 3] [--seeds 1,2] [--shapes classic,credit,burden,volatility]
 *                                          [--strategies strategies/balanced.yaml,strategies/conservative.yaml,...]
 *
 * For every shape and seed it exports a sandbox recording and prints, per strategy file, what
 * every backtest report's calibration section says (src/backtest/calibration): the resolved
 * requests the strategy scores (n), their mean predicted default, the realised default with its
 * 95 % interval, "ok" when within 2 points or within the interval, the Brier score against a
 * constant guess at the base rate, the AUC of the probability, how many deciles are off, and the
 * same for the requests at or above min_probability. Give two versions of a file (say the one
 * before `lendbot train calibration`, from git show) to compare them: same name, other path.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  calibrated,
  predictionsOf,
  strategyProbabilities,
  calibrationStats,
  type CalibrationGroup,
} from '../src/backtest/calibration/index.js';
import { auc } from '../src/backtest/train/index.js';
import { loadStrategyFile } from '../src/engine/index.js';
import { MARKET_GRID_OPTIONS, marketGrid, marketRecordings } from './market-grid.js';

const DEFAULT_STRATEGIES = [
  'strategies/balanced.yaml',
  'strategies/conservative.yaml',
  'strategies/cashflow.yaml',
  'strategies/examples/paid-scores.yaml',
];

const { values } = parseArgs({
  options: { ...MARKET_GRID_OPTIONS, strategies: { type: 'string', default: DEFAULT_STRATEGIES.join(',') } },
});
const grid = marketGrid(values);
const files = values.strategies.split(',').filter((file) => file !== '');
const strategies = await Promise.all(files.map((file) => loadStrategyFile(file)));

const pct = (value: number): string => (value * 100).toFixed(1);
const group = (g: CalibrationGroup): string =>
  `${pct(g.predicted)} vs ${pct(g.realised)} [${pct(g.low)}-${pct(g.high)}] ${calibrated(g) ? 'ok' : 'off'}`;

console.log(`${grid.requests} requests per market, ${grid.arrivalsPerHour} an hour; predicted vs realised default in %, [95 % interval]`);
console.log(
  ['shape', 'seed', 'file', 'n', 'all scored', 'Brier / constant', 'AUC', 'deciles off', 'at or above min_probability (n)'].join(' | '),
);
const dir = mkdtempSync(join(tmpdir(), 'lendbot-bench-calibration-'));
try {
  for await (const { shape, seed, recording } of marketRecordings(grid, dir)) {
    strategies.forEach((strategy, i) => {
      const found = strategyProbabilities(recording, strategy);
      const stats = calibrationStats(predictionsOf(found.scored), found.minProbability);
      const area = auc(
        found.scored.map((item) => item.probability),
        found.scored.map((item) => 1 - item.defaulted),
      );
      const off = stats.deciles.filter((row) => !calibrated(row)).length;
      const passing = stats.cut ? `${group(stats.cut.passing)} (${stats.cut.passing.n})` : '-';
      console.log(
        [
          shape,
          seed,
          files[i],
          stats.overall.n,
          group(stats.overall),
          `${stats.brier.toFixed(4)} / ${stats.constantBrier.toFixed(4)}`,
          area === null ? '-' : area.toFixed(3),
          `${off} of ${stats.deciles.length}`,
          passing,
        ].join(' | '),
      );
    });
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
