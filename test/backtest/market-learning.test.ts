/**
 * Prices that learn, replayed (docs/market-model.md, "Learning while live"): on a sandbox export
 * of the `shoppers` market (better borrowers shop for price; every line carries the borrower's
 * reservation rate, so acceptance is what the sandbox's borrowers did), `balanced` with
 * `pricing.learning` starts from the unfitted default market response, which expects several
 * times the acceptance this market gives, and after a few hundred fates predicts the acceptance
 * at the prices it offers to within 0.02 overall, every block of 100 fates within three binomial
 * standard errors (about 0.07 at this market's 6 %; a fixed 0.05 is two, which one block in
 * twenty misses by chance). The replay is deterministic: the same recording gives the same
 * learner state and the same prices.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { defaultBalance, loadRecording, runBacktest, type PreparedRecording } from '../../src/backtest/index.js';
import { compileStrategy, parseStrategyText, type CompiledStrategy } from '../../src/engine/index.js';
import { MarketLearning, type LearnedOffer } from '../../src/engine/market/index.js';
import { exportSandboxRecording } from '../../src/sandbox/index.js';

let dir: string;
let recording: PreparedRecording;
let learning: CompiledStrategy;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lendbot-market-learning-'));
  const file = join(dir, 'shoppers.jsonl');
  await exportSandboxRecording(file, { seed: 3, requests: 2000, shape: 'shoppers', arrivalsPerHour: 3 });
  recording = await loadRecording(file, {}, () => undefined);
  const doc = parse(await readFile('strategies/balanced.yaml', 'utf8')) as { pricing: Record<string, unknown> };
  doc.pricing = { ...doc.pricing, learning: { prior_sd: 1, explore_share: 0.05 } };
  const text = stringify(doc);
  learning = compileStrategy(parseStrategyText(text, 'balanced-learning.yaml'), { file: 'balanced-learning.yaml', text });
}, 60_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface Fate {
  offer: LearnedOffer;
  accepted: boolean;
}

function replay(): { fates: Fate[]; learner: MarketLearning; rates: number[] } {
  const fates: Fate[] = [];
  const learner = new MarketLearning();
  const result = runBacktest(recording, [learning], {
    startingBalanceCents: defaultBalance(recording).cents,
    learning: learner,
    onLearned: (offer, accepted) => fates.push({ offer, accepted }),
  });
  return { fates, learner, rates: result.offeredRates };
}

const mean = (values: readonly number[]): number => values.reduce((sum, value) => sum + value, 0) / values.length;
const priorOf = (fate: Fate): number => 1 / (1 + Math.exp(-fate.offer.observation.priorLogit));

describe('learning the market while replaying a recording', () => {
  it('predicts the acceptance at its own prices after a few hundred fates, where the prior is far off', () => {
    const { fates, learner } = replay();
    expect(fates.length).toBeGreaterThan(600);
    const later = fates.slice(300);
    const realised = mean(later.map((fate) => (fate.accepted ? 1 : 0)));
    // The prior expects several times what this market gives at the same offers...
    expect(mean(later.map(priorOf)) - realised).toBeGreaterThan(0.05);
    // ...the learner, predicting each offer before its fate, is within 0.02 over them all...
    expect(Math.abs(mean(later.map((fate) => fate.offer.predicted)) - realised)).toBeLessThan(0.02);
    // ...and within three binomial standard errors in every block of 100.
    for (let start = 0; start + 100 <= later.length; start += 100) {
      const block = later.slice(start, start + 100);
      const predicted = mean(block.map((fate) => fate.offer.predicted));
      const gap = predicted - mean(block.map((fate) => (fate.accepted ? 1 : 0)));
      const noise = Math.sqrt((predicted * (1 - predicted)) / block.length);
      expect(Math.abs(gap), `fates ${300 + start + 1} to ${300 + start + 100}`).toBeLessThan(3 * noise);
    }
    const state = learner.existing('balanced')?.snapshotState;
    expect(state?.version).toBe(fates.length);
    expect(state?.evidence).toBe(fates.length);
    // Exploration stayed within its budget.
    expect(state?.explorationCostCents ?? Infinity).toBeLessThanOrEqual(0.05 * (state?.offeredValueCents ?? 0) + 1e-6);
  });

  it('is deterministic: the same fates give the same learner state and the same prices', () => {
    const a = replay();
    const b = replay();
    expect(b.rates).toEqual(a.rates);
    expect(b.learner.existing('balanced')?.snapshotState).toEqual(a.learner.existing('balanced')?.snapshotState);
  });
});
