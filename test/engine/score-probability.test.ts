/**
 * A compiled score's `probability` (what evaluation and tuning's columns read, built without the
 * contribution lines) must be the very number its lines add up to, for scorecards, logistic terms
 * (clamped, log1p) and missing values alike: decisions would otherwise move by a rounding.
 */
import { describe, expect, it } from 'vitest';
import { loadStrategyFile } from '../../src/engine/index.js';
import { columnSourceOf } from '../../src/engine/compile/compile-strategy.js';
import { compileScore, probabilityOf } from '../../src/engine/compile/compile-score.js';
import type { FeatureValue } from '../../src/engine/features/feature-definition.js';
import { seededRandom } from '../../src/backtest/tune/seeded-random.js';
import { compileText } from './compile-text.js';
import { MarketLearning, withLearning } from '../../src/engine/market/index.js';

const LOGISTIC = `
score:
  scorecard:
    base_points: 600
    base_odds: 6
    points_to_double_odds: 40
    terms:
      - { feature: credit_score_mid, bins: [{ below: 640, points: -20 }, { points: 15 }], missing: -30 }
      - { feature: payment_to_income_at_max_rate, per_unit: -150, center: 0.1, missing: -20 }
  logistic:
    intercept: 0.4
    terms:
      - { feature: annual_income, weight: 0.3, transform: log1p, center: 10, missing: -0.2 }
      - { feature: hard_inquiries, weight: -0.21, clamp: [0, 4], missing: 0.1 }
pricing:
  target_return: 0.08
`;

describe("a compiled score's probability", () => {
  it('is exactly what its contribution lines add up to', async () => {
    const strategies = [
      compileText(LOGISTIC),
      await loadStrategyFile(new URL('../../strategies/balanced.yaml', import.meta.url).pathname),
      await loadStrategyFile(new URL('../../strategies/conservative.yaml', import.meta.url).pathname),
    ];
    const random = seededRandom(11);
    let compared = 0;
    for (const strategy of strategies) {
      const source = columnSourceOf(strategy);
      if (!source?.definition.score) throw new Error(`${strategy.name} has no score`);
      const score = compileScore(source.definition.score, { ...strategy.params }, source.table, source.model);
      const slots = source.table.names.length;
      for (let i = 0; i < 2_000; i += 1) {
        // Any value in any slot (a term reads only its own), a fifth of them absent.
        const values: FeatureValue[] = Array.from({ length: slots }, () =>
          random() < 0.2 ? null : (random() - 0.2) * 10 ** Math.floor(random() * 6),
        );
        expect(score.probability(values)).toBe(probabilityOf(score.contributions(values)));
        compared += 1;
      }
    }
    expect(compared).toBe(6_000);
  });

  it('is exactly what its lines add up to under a learned calibration with a seed, as its learner moves', () => {
    const text = `${LOGISTIC.replace('pricing:', '  calibration: { method: learned, seed: { method: platt, a: 0.9, b: -0.2 } }\npricing:')}`;
    const strategy = compileText(text, 'learned.yaml', 'learned');
    const source = columnSourceOf(strategy);
    if (!source?.definition.score) throw new Error('no score');
    const score = compileScore(source.definition.score, { ...strategy.params }, source.table, source.model, 'learned');
    const learning = new MarketLearning();
    const learner = learning.calibration.learnerFor('learned', { levelSd: 1, slopeSd: 0.3, levelMean: 0 });
    const random = seededRandom(12);
    for (let round = 0; round < 4; round += 1) {
      for (let i = 0; i < 10; i += 1) {
        const key = `${round}-${i}`;
        learner.funded(key, 0.05 + random() * 0.2, 6);
        if (random() < 0.4) learner.defaulted(key, 2);
        else learner.paid(key, 3);
      }
      learner.refitIfDue(round * 86_400_000);
      withLearning(learning, () => {
        for (let i = 0; i < 200; i += 1) {
          const values: FeatureValue[] = Array.from({ length: source.table.names.length }, () =>
            random() < 0.2 ? null : (random() - 0.2) * 10 ** Math.floor(random() * 6),
          );
          expect(score.probability(values)).toBe(probabilityOf(score.contributions(values)));
        }
      });
    }
    expect(learner.version).toBe(4);
  });
});
