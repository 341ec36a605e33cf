/**
 * Market learning is a wing (issue 38, item 2): the daemon decides and places with it left out.
 * Both runs below start on a store where a previous run left a learner for learn-all (its prices
 * learn the market, pricing.learning) and take a webhook's request and a polled one on the same
 * sandbox. Attached, the wing restores that learner and the decisions are priced by it; left out
 * (DaemonOverrides.marketLearning = false, what deleting its attach line in src/daemon/daemon.ts
 * does), the same two requests are still decided and placed once, priced by the learner at its
 * prior (version 0, no fate), with no decision noted for learning and no `learn` job.
 */
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadStrategyFile, type CompiledStrategy } from '../../src/engine/index.js';
import { learningSummary, MarketLearning, observationAt, withLearning } from '../../src/engine/market/index.js';
import { MIN_OFFER_RATE } from '../../src/math/index.js';
import { databaseOf, type Store } from '../../src/store/index.js';
import { createMarketLearningRepository } from '../../src/store/market-learning-repository.js';
import { loanRequest } from '../engine/fixtures.js';
import { offerHookedAndPolled, startDaemonHarness, type DaemonHarness } from './daemon-harness.js';

const LEARN_ALL = fileURLToPath(new URL('./fixtures/learn-all.yaml', import.meta.url));
const FATES = 12;

let harness: DaemonHarness | undefined;
let strategy: CompiledStrategy;
beforeAll(async () => {
  strategy = await loadStrategyFile(LEARN_ALL);
});
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** What a previous run left: learn-all's learner after FATES fates (borrowers took only the low rates). */
function seedLearner(store: Store): void {
  const learning = new MarketLearning();
  withLearning(learning, () => strategy.evaluate(loanRequest({ id: 1 }), {}));
  const learner = learning.existing(strategy.name);
  if (learner === undefined) throw new Error('no learner made');
  for (let n = 0; n < FATES; n += 1) {
    const position = 0.1 + (0.8 * n) / FATES;
    const rate = MIN_OFFER_RATE + position * (0.6 - MIN_OFFER_RATE);
    learning.observe(strategy.name, observationAt(rate, 0.6, 0.02, learner.settings.market), position < 0.3);
  }
  const json = { state: learner.snapshotState, settings: learner.settings, summary: learningSummary(learner) };
  createMarketLearningRepository(databaseOf(store)).saveLearner(strategy.name, learner.version, learner.evidence, json, 0);
}

/** Which market priced each request (from its decision's reasons), and how many decisions were noted for learning. */
async function tradeAndReadMarkets(h: DaemonHarness): Promise<{ priced: string[]; noted: number }> {
  const ids = await offerHookedAndPolled(h);
  const priced = ids.map((id) => h.store.decisions.get(id)?.reasons.find((reason) => reason.includes('market learned')) ?? 'none');
  const noted = databaseOf(h.store).prepare('SELECT count(*) AS n FROM market_decisions').get() as { n: number };
  return { priced, noted: noted.n };
}

describe('the daemon with market learning left out', () => {
  it('with the wing attached, the stored learner prices both requests and they are noted for learning (the control)', async () => {
    harness = await startDaemonHarness({ strategyFiles: [LEARN_ALL], seedStore: seedLearner });
    const { priced, noted } = await tradeAndReadMarkets(harness);
    expect(priced.every((reason) => reason.includes(`market learned v${FATES} (${FATES} fates)`))).toBe(true);
    expect(noted).toBe(2);
    await expect(harness.daemon.runJob('learn')).resolves.toBeUndefined();
  });

  it('decides and places from a webhook and a poll, priced by the prior, with nothing noted and no learn job', async () => {
    harness = await startDaemonHarness({ strategyFiles: [LEARN_ALL], seedStore: seedLearner, marketLearningWing: false });
    const { priced, noted } = await tradeAndReadMarkets(harness);
    expect(priced.every((reason) => reason.includes('market learned v0 (0 fates)'))).toBe(true);
    expect(noted).toBe(0);
    await expect(harness.daemon.runJob('learn')).rejects.toThrow(/no job "learn"/);
  });
});
