/**
 * How fast prices that learn (`pricing.learning`) find a market their prior gets wrong (figures
 * printed, never asserted; test/backtest/market-learning.test.ts asserts convergence on a small case):
 *
 *   node --import tsx bench/market-learning.ts [--requests 6000] [--arrivals 3] [--seeds 1]
 *       [--shapes shoppers] [--strategy strategies/balanced.yaml] [--prior-sd 1] [--explore-share 0.05]
 *
 * For each shape and seed it exports a sandbox recording (each line carries the borrower's
 * reservation rate, so the replay's acceptance is what the sandbox's borrowers did) and replays
 * it twice: the strategy as it is (the unfitted default market response) and the same file with
 * `pricing.learning` added, starting from that same wrong prior. Per block of 100 learned fates
 * it prints the learner's predicted acceptance at the prices it offered (when it offered them),
 * the prior's at the same prices and the realised acceptance; then the net of the first and the
 * second half of the requests for both runs, and what learning added in each half.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { parse, stringify } from 'yaml';
import { defaultBalance, runBacktest, type PreparedRecording } from '../src/backtest/index.js';
import { compileStrategy, parseStrategyText, type CompiledStrategy } from '../src/engine/index.js';
import { MarketLearning } from '../src/engine/market/index.js';
import { MARKET_GRID_OPTIONS, marketGrid, marketRecordings } from './market-grid.js';

const { values } = parseArgs({
  options: {
    ...MARKET_GRID_OPTIONS,
    seeds: { type: 'string', default: '1' },
    shapes: { type: 'string', default: 'shoppers' },
    strategy: { type: 'string', default: 'strategies/balanced.yaml' },
    'prior-sd': { type: 'string', default: '1' },
    'explore-share': { type: 'string', default: '0.05' },
  },
});
const grid = marketGrid(values);
const dir = mkdtempSync(join(tmpdir(), 'lendbot-ml-'));
const BLOCK = 100;

/** The strategy file, with `pricing.learning` when `learning` is set. */
function strategyWith(learning: Record<string, unknown> | undefined): CompiledStrategy {
  const file = values.strategy;
  const doc = parse(readFileSync(file, 'utf8')) as { pricing: Record<string, unknown> };
  if (learning !== undefined) doc.pricing = { ...doc.pricing, learning };
  const text = stringify(doc);
  return compileStrategy(parseStrategyText(text, file), { file, text });
}

/** Net cents of the first and second half of the requests (each request's interest, recoveries, losses and data spend). */
function halves(contributions: readonly number[]): [number, number] {
  const middle = Math.floor(contributions.length / 2);
  const sum = (from: number, to: number): number => contributions.slice(from, to).reduce((total, cents) => total + cents, 0);
  return [sum(0, middle), sum(middle, contributions.length)];
}

const usd = (cents: number): string => (cents / 100).toFixed(0).padStart(9);

function replay(recording: PreparedRecording, strategy: CompiledStrategy, learning?: MarketLearning, onBlock?: (line: string) => void) {
  let block = { predicted: 0, prior: 0, accepted: 0, n: 0 };
  let fates = 0;
  const result = runBacktest(recording, [strategy], {
    startingBalanceCents: defaultBalance(recording).cents,
    recordContributions: true,
    learning,
    onLearned: (offer, accepted) => {
      block.predicted += offer.predicted;
      block.prior += 1 / (1 + Math.exp(-offer.observation.priorLogit));
      block.accepted += accepted ? 1 : 0;
      block.n += 1;
      fates += 1;
      if (block.n === BLOCK) {
        const gap = block.predicted / BLOCK - block.accepted / BLOCK;
        onBlock?.(
          `  fates ${String(fates - BLOCK + 1).padStart(5)}-${String(fates).padEnd(5)} predicted ${(block.predicted / BLOCK).toFixed(3)}  prior ${(block.prior / BLOCK).toFixed(3)}  realised ${(block.accepted / BLOCK).toFixed(3)}  gap ${gap >= 0 ? '+' : ''}${gap.toFixed(3)}`,
        );
        block = { predicted: 0, prior: 0, accepted: 0, n: 0 };
      }
    },
  });
  return result;
}

const learningSetting = { enabled: true, prior_sd: Number(values['prior-sd']), explore_share: Number(values['explore-share']) };
try {
  for await (const { shape, seed, recording } of marketRecordings(grid, dir)) {
    console.log(`${shape} seed ${seed}: ${recording.entries.length} requests; learning ${JSON.stringify(learningSetting)}`);
    const fixed = runBacktest(recording, [strategyWith(undefined)], {
      startingBalanceCents: defaultBalance(recording).cents,
      recordContributions: true,
    });
    const learning = new MarketLearning();
    const learned = replay(recording, strategyWith(learningSetting), learning, (line) => console.log(line));
    const state = learning.entries()[0]?.[1].snapshotState;
    if (state !== undefined) {
      console.log(
        `  learner: version ${state.version}, ${state.evidence} fates (${state.accepted} accepted), ${state.explored} explored, exploration cost ${usd(state.explorationCostCents)} USD of ${usd(state.offeredValueCents)} USD expected`,
      );
      console.log(`  θ mean ${state.posterior.mean.map((value) => value.toFixed(2)).join(' ')}`);
    }
    for (const [name, result] of [
      ['prior only', fixed],
      ['learning', learned],
    ] as const) {
      const [first, second] = halves(result.requestNetCents);
      const s = result.summary;
      console.log(
        `  ${name.padEnd(10)} offers ${String(s.offers).padStart(5)} funded ${String(s.funded).padStart(5)} net ${usd(s.netCents)} USD (first half ${usd(first)}, second half ${usd(second)}) return ${(s.netAnnualizedReturn * 100).toFixed(2)} %`,
      );
    }
    // A later loan has less time to repay before the recording ends, in both runs alike: what
    // learning adds per half is the fairer reading of "learns as it goes".
    const [fixedFirst, fixedSecond] = halves(fixed.requestNetCents);
    const [learnedFirst, learnedSecond] = halves(learned.requestNetCents);
    console.log(
      `  learning minus prior only: first half ${usd(learnedFirst - fixedFirst)} USD, second half ${usd(learnedSecond - fixedSecond)} USD`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
