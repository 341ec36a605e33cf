/**
 * The decision-quality bench's held-out runs of a learning strategy (bench/carried-learning.ts):
 * in every world and market draw, the learner that prices the held-out period is the one that
 * lived through the training period in that same world and draw, and no other run's fates leak
 * in. A strategy that does not learn gets exactly the held-out figures of a plain backtest.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { carriedWorlds } from '../../bench/carried-learning.js';
import { pricingVariant, withoutReservations } from '../../bench/variants.js';
import {
  borrowerWorlds,
  DEFAULT_MARKET,
  type BorrowerWorld,
  defaultBalance,
  loadRecording,
  runBacktest,
  runDraws,
  runWorlds,
  type PreparedRecording,
} from '../../src/backtest/index.js';
import { sliceRecording } from '../../src/backtest/prepared-recording.js';
import { loadStrategyFile, type CompiledStrategy } from '../../src/engine/index.js';
import { MarketLearning } from '../../src/engine/market/index.js';
import { exportSandboxRecording } from '../../src/sandbox/index.js';

const SEEDS = [1, 2];
let dir: string;
let periods: { train: PreparedRecording; heldOut: PreparedRecording; strippedTrain: PreparedRecording; strippedHeldOut: PreparedRecording };
let balanced: CompiledStrategy;
let learning: CompiledStrategy;
let options: { startingBalanceCents: number };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lendbot-carried-'));
  const file = join(dir, 'shoppers.jsonl');
  await exportSandboxRecording(file, { seed: 5, requests: 1200, shape: 'shoppers', arrivalsPerHour: 3 });
  const recording = await loadRecording(file, {}, () => undefined);
  const cut = Math.round(recording.entries.length * 0.7);
  const train = sliceRecording(recording, 0, cut);
  const heldOut = sliceRecording(recording, cut, recording.entries.length);
  periods = { train, heldOut, strippedTrain: withoutReservations(train), strippedHeldOut: withoutReservations(heldOut) };
  options = { startingBalanceCents: defaultBalance(recording).cents };
  balanced = await loadStrategyFile('test/fixtures/balanced-fitted.yaml');
  learning = pricingVariant('test/fixtures/balanced-fitted.yaml', 'learning', { learning: { prior_sd: 1, explore_share: 0.05 } });
}, 60_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('held-out runs with the learner carried from the training period', () => {
  it('price the held-out period with the learner each world and draw trained, one per run', () => {
    const carried = carriedWorlds(periods, learning, options, SEEDS);
    // By hand: per draw, one learner through the training period, then the held-out one.
    const byHand = (
      train: PreparedRecording,
      heldOut: PreparedRecording,
      worlds: { train?: BorrowerWorld | undefined; heldOut?: BorrowerWorld | undefined } = {},
    ) =>
      SEEDS.map((seed) => {
        const learner = new MarketLearning();
        runBacktest(train, [learning], { ...options, market: { seed }, learning: learner, world: worlds.train });
        const result = runBacktest(heldOut, [learning], { ...options, market: { seed }, learning: learner, world: worlds.heldOut });
        expect(learner.existing(learning.name)?.snapshotState.evidence ?? 0).toBeGreaterThan(0);
        return result.summary.netCents;
      });
    expect(carried.recorded.draws.draws.map((d) => d.netCents)).toEqual(byHand(periods.train, periods.heldOut));
    const trainWorlds = borrowerWorlds(periods.strippedTrain, DEFAULT_MARKET.response);
    const heldOutWorlds = borrowerWorlds(periods.strippedHeldOut, DEFAULT_MARKET.response);
    expect(carried.worlds.map((w) => w.world)).toEqual(heldOutWorlds.map((w) => w.name));
    for (const world of carried.worlds) {
      const worlds = { train: trainWorlds.find((w) => w.name === world.world), heldOut: heldOutWorlds.find((w) => w.name === world.world) };
      expect(world.draws.draws.map((d) => d.netCents)).toEqual(byHand(periods.strippedTrain, periods.strippedHeldOut, worlds));
    }
    // The carried learner changes the held-out prices: a fresh one would have earned otherwise.
    const fresh = runDraws(periods.heldOut, [learning], options, SEEDS).draws.draws.map((d) => d.netCents);
    expect(carried.recorded.draws.draws.map((d) => d.netCents)).not.toEqual(fresh);
  }, 120_000);

  it('leave a strategy that does not learn with the figures of a plain held-out backtest', () => {
    const carried = carriedWorlds(periods, balanced, options, SEEDS);
    expect(carried.recorded.draws.draws).toEqual(runDraws(periods.heldOut, [balanced], options, SEEDS).draws.draws);
    const band = runWorlds(periods.strippedHeldOut, [balanced], options, SEEDS);
    expect(carried.worlds.map((w) => w.draws.draws)).toEqual(band.worlds.map((w) => w.draws.draws));
  }, 120_000);
});
