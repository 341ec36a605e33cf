/**
 * A held-out backtest of a learning strategy (`pricing.learning`) whose learner has lived through
 * the training period first, as a live bot's would have (bench/decision-quality.ts): for every
 * world and market draw, a fresh learner replays the training period in that world and draw,
 * then prices the held-out period with what it learned there. runDraws and runWorlds cannot do
 * this: they hand one learner to every draw and world, so one run's fates would leak into the next.
 */
import {
  borrowerWorlds,
  DEFAULT_MARKET,
  type BorrowerWorld,
  runBacktest,
  summarizeDraws,
  type BacktestOptions,
  type DrawFigures,
  type DrawsSummary,
  type OfferStats,
  type PreparedRecording,
} from '../src/backtest/index.js';
import type { CompiledStrategy } from '../src/engine/index.js';
import { MarketLearning } from '../src/engine/market/index.js';

export interface CarriedRun {
  draws: DrawsSummary;
  /** The first draw's offer statistics (adverse selection). */
  stats: OfferStats | undefined;
}

/**
 * `strategy` over `seeds` on `heldOut`, each run's learner first fed by the same run (market draw
 * and world: `worlds.train` there, `worlds.heldOut` here; none: the recorded acceptance) on `train`.
 */
function carriedDraws(
  train: PreparedRecording,
  heldOut: PreparedRecording,
  strategy: CompiledStrategy,
  options: BacktestOptions,
  seeds: readonly number[],
  worlds: { train?: BorrowerWorld; heldOut?: BorrowerWorld } = {},
): CarriedRun {
  const draws: DrawFigures[] = [];
  let stats: OfferStats | undefined;
  for (const seed of seeds) {
    const learning = new MarketLearning();
    const market = { ...options.market, seed };
    runBacktest(train, [strategy], { ...options, market, learning, world: worlds.train, recordDecisions: false });
    const result = runBacktest(heldOut, [strategy], { ...options, market, learning, world: worlds.heldOut, recordDecisions: false });
    stats ??= result.offerStats[0];
    const { netAnnualizedReturn, returnOnDeployed, funded, netCents, maxDrawdown } = result.summary;
    draws.push({ seed, netAnnualizedReturn, returnOnDeployed, funded, netCents, maxDrawdown });
  }
  return { draws: summarizeDraws(draws), stats };
}

/**
 * The recorded world (`train` and `heldOut` as they are) and each borrower world (`strippedTrain`
 * and `strippedHeldOut`, the same periods without reservation rates: each world supplies them).
 */
export function carriedWorlds(
  periods: { train: PreparedRecording; heldOut: PreparedRecording; strippedTrain: PreparedRecording; strippedHeldOut: PreparedRecording },
  strategy: CompiledStrategy,
  options: BacktestOptions,
  seeds: readonly number[],
): { recorded: CarriedRun; worlds: Array<{ world: string } & CarriedRun> } {
  const response = options.market?.response ?? DEFAULT_MARKET.response;
  const trainWorlds = borrowerWorlds(periods.strippedTrain, response);
  return {
    recorded: carriedDraws(periods.train, periods.heldOut, strategy, options, seeds),
    worlds: borrowerWorlds(periods.strippedHeldOut, response).map((world) => ({
      world: world.name,
      ...carriedDraws(periods.strippedTrain, periods.strippedHeldOut, strategy, options, seeds, {
        train: trainWorlds.find((w) => w.name === world.name) ?? world,
        heldOut: world,
      }),
    })),
  };
}
