// A strategy that learns its market (`pricing.learning`) prices with what the daemon learned in
// `lendbot strategy explain --db` and as a shadow challenger, and says which market priced it;
// the daemon's own learners are left as they were.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decideShadows } from '../../src/challengers/shadow-decide.js';
import { loadStrategyFile, type CompiledStrategy } from '../../src/engine/index.js';
import { MIN_OFFER_RATE } from '../../src/math/index.js';
import { learningSummary, MarketLearning, observationAt, withLearning } from '../../src/engine/market/index.js';
import { databaseOf } from '../../src/store/index.js';
import { createMarketLearningRepository } from '../../src/store/market-learning-repository.js';
import { recordingLine, writeRecording } from '../backtest/recording-fixtures.js';
import { tempStore } from '../store/fixtures.js';
import { loanRequest } from '../engine/fixtures.js';
import { runCli } from './run-cli.js';
import { reasonText } from '../../src/domain/decision-reason.js';

const STRATEGY = `name: learner
description: prices over a market it learns
version: "1"
data: { banking_data: never }
score:
  logistic: { intercept: 3.9, terms: [{ feature: loan_terms, weight: 0 }] }
pricing:
  mode: expected_profit
  target_return: 0.05
  learning: { prior_sd: 2, explore_share: 0 }
`;

/** A learner for `strategy` that saw borrowers refuse every rate above a fifth of the way to the maximum. */
function learnedRefusals(strategy: CompiledStrategy, fates: number): MarketLearning {
  const learning = new MarketLearning();
  // Pricing once makes the learner with the strategy's settings (its configured market).
  withLearning(learning, () => strategy.evaluate(loanRequest({ id: 1 }), {}));
  const learner = learning.existing(strategy.name);
  if (learner === undefined) throw new Error('no learner made');
  const maxRate = 0.5;
  for (let n = 0; n < fates; n += 1) {
    const position = 0.1 + (0.8 * n) / fates;
    const rate = MIN_OFFER_RATE + position * (maxRate - MIN_OFFER_RATE);
    learning.observe(strategy.name, observationAt(rate, maxRate, 0.02, learner.settings.market), position < 0.2);
  }
  return learning;
}

describe('pricing with the learned market outside the live decision', () => {
  let dir: string;
  let file: string;
  let strategy: CompiledStrategy;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lendbot-learned-market-'));
    file = join(dir, 'learner.yaml');
    await writeFile(file, STRATEGY);
    strategy = await loadStrategyFile(file);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('strategy explain --db prices with the market the daemon learned, and says so', async () => {
    const recording = join(dir, 'rec.jsonl');
    await writeRecording(recording, [recordingLine({ id: 7, seenAt: '2026-03-01T00:00:00Z', request: { max_interest_rate: 0.5 } })]);
    const h = tempStore();
    try {
      const learning = learnedRefusals(strategy, 200);
      const learner = learning.existing('learner');
      if (learner === undefined) throw new Error('no learner');
      createMarketLearningRepository(databaseOf(h.store)).saveLearner(
        'learner',
        learner.version,
        learner.evidence,
        { state: learner.snapshotState, settings: learner.settings, summary: learningSummary(learner) },
        Date.now(),
      );
      const configured = await runCli(['strategy', 'explain', file, '--recording', recording, '--id', '7']);
      expect(configured.code).toBe(0);
      // Without --db, as a daemon that has seen no fate yet: through its learner at the prior.
      expect(configured.stdout).toContain('\n  priced with market learned v0 (0 fates)\n');
      const learned = await runCli(['strategy', 'explain', file, '--recording', recording, '--id', '7', '--db', h.path]);
      expect(learned.stderr).toBe('');
      expect(learned.stdout).toContain('\n  priced with market learned v200 (200 fates)\n');
      const rate = (text: string): number => Number(/decision {2}OFFER at ([\d.]+)/.exec(text)?.[1]);
      // Borrowers refused every rate above a fifth of the way: the learned price is far lower.
      expect(rate(learned.stdout)).toBeLessThan(rate(configured.stdout) - 0.05);
      const json = JSON.parse(
        (await runCli(['strategy', 'explain', file, '--recording', recording, '--id', '7', '--db', h.path, '--json'])).stdout,
      ) as { market: string };
      expect(json.market).toBe('market learned v200 (200 fates)');
      const missing = await runCli(['strategy', 'explain', file, '--recording', recording, '--id', '7', '--db', join(dir, 'none.db')]);
      expect(missing).toMatchObject({ code: 1, stderr: `lendbot: no database at ${join(dir, 'none.db')}\n` });
    } finally {
      h.cleanup();
    }
  });

  it('a shadow strategy prices with a copy of the learned market: the reasons say which, the live learner is untouched', () => {
    const learning = learnedRefusals(strategy, 200);
    const before = learning.existing('learner')?.snapshotState;
    const request = loanRequest({ id: 11, max_interest_rate: 0.5 });
    const [learned] = decideShadows(request, {}, [strategy], Date.parse('2026-03-01T00:00:00Z'), learning);
    const [configured] = decideShadows(request, {}, [strategy], Date.parse('2026-03-01T00:00:00Z'));
    expect(learned?.reasons.map(reasonText)).toContain('priced with market learned v200 (200 fates)');
    expect(configured?.reasons.map(reasonText)).toContain('priced with configured market');
    expect(learned?.rate).toBeLessThan((configured?.rate ?? 0) - 0.05);
    // The would-be offer's modelled acceptance is the learned market's, not the default one's.
    expect(learned?.modelledAccept).toBeGreaterThan(0);
    expect(learned?.modelledAccept).not.toBeCloseTo(configured?.modelledAccept ?? 0, 2);
    expect(learning.existing('learner')?.snapshotState).toEqual(before);
    expect(learning.entries().map(([name]) => name)).toEqual(['learner']);
  });
});
