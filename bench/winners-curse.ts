/**
 * What the winner's-curse term (`pricing.winners_curse`; src/engine/market/repay-curse.ts) learns
 * from a strategy's own funded loans (figures printed, never asserted):
 *
 *   node --import tsx bench/winners-curse.ts [--shapes shoppers,classic,urgent] [--seeds 1,2]
 *       [--requests 3000] [--prior-sd 0.5] [--strategy strategies/balanced.yaml]
 *
 * For each sandbox market it replays the first 70 % in the recorded world with the strategy
 * pricing for the curse, lets the replay reach every funded loan's term end (each fate the
 * recording knows), and prints the learned w over [1, u, u·logit p], the loans it rests on and
 * the spread of their rate positions u (what the slope can be learned from), and
 * P(repay | won at u) against the score's P(repay) for a good and a poorer borrower: in a market
 * where better borrowers shop it should fall with u; where take-up does not depend on the
 * borrower, w should stay near 0.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { defaultBalance, runBacktest } from '../src/backtest/index.js';
import { sliceRecording } from '../src/backtest/prepared-recording.js';
import { MarketLearning } from '../src/engine/market/index.js';
import { wonRepayProbability } from '../src/engine/market/repay-curse.js';
import { MARKET_GRID_OPTIONS, marketGrid, marketRecordings } from './market-grid.js';
import { pricingVariant } from './variants.js';

const { values } = parseArgs({
  options: {
    ...MARKET_GRID_OPTIONS,
    requests: { type: 'string', default: '3000' },
    shapes: { type: 'string', default: 'shoppers,classic,urgent' },
    draws: { type: 'string', default: '1' },
    'prior-sd': { type: 'string', default: '0.5' },
    strategy: { type: 'string', default: 'strategies/balanced.yaml' },
  },
});
const grid = marketGrid(values);
const strategy = pricingVariant(values.strategy, 'curse', { winners_curse: { enabled: true, prior_sd: Number(values['prior-sd']) } });
const dir = mkdtempSync(join(tmpdir(), 'lendbot-curse-'));
const f = (x: number): string => x.toFixed(2);
try {
  console.log(
    'shape | seed | loans (repaid) | their u: 10th / 50th / 90th percentile | w | P(repay | won) at u 0.2 / 0.5 / 0.9, scored 0.90 | scored 0.70',
  );
  for await (const { shape, seed, recording } of marketRecordings(grid, dir)) {
    const train = sliceRecording(recording, 0, Math.round(recording.entries.length * 0.7));
    const learning = new MarketLearning();
    const positions: number[] = [];
    runBacktest(train, [strategy], {
      startingBalanceCents: defaultBalance(recording).cents,
      learning,
      recordDecisions: false,
      onRepayLearned: (fate) => positions.push(fate.curse.observation.position),
    });
    positions.sort((a, b) => a - b);
    const state = learning.curse.existing(strategy.name);
    if (state === undefined) {
      console.log(`${shape} | ${seed} | 0 | - | - | - | -`);
      continue;
    }
    const w = state.posterior.mean;
    // u is the rate's position, so a rate for it on a request whose maximum is 0.5.
    const at = (p: number) => [0.2, 0.5, 0.9].map((u) => f(wonRepayProbability(p, 0.03 + u * 0.47, 0.5, w))).join(' / ');
    const share = (x: number): string => f(positions[Math.floor(x * (positions.length - 1))] ?? Number.NaN);
    console.log(
      `${shape} | ${seed} | ${state.evidence} (${state.repaid}) | ${share(0.1)} / ${share(0.5)} / ${share(0.9)} | [${w.map(f).join(', ')}] | ${at(0.9)} | ${at(0.7)}`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
