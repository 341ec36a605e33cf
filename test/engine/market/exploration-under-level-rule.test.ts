// Exploring (pricing.learning's Thompson draw) under the level-uncertainty rule that moves the
// price afterwards: when the rule would have put the greedy price on the very rate the offer
// carries, the offer explored nothing, says so and costs the budget nothing; when it moved only
// the draw, the loss counted is the one between the rates the rule leaves.
import { describe, expect, it } from 'vitest';
import { evaluate, type Decision } from '../../../src/engine/index.js';
import { reasonText } from '../../../src/domain/decision-reason.js';
import { MarketLearning, withLearning } from '../../../src/engine/market/index.js';
import { curvePoint } from '../../../src/engine/pricing/expected-profit.js';
import { compileText } from '../compile-text.js';
import { loanRequest } from '../fixtures.js';

/** A constant score under a learned level, learning with a budget wide enough to explore on every draw. */
const strategy = (levelRule: string): string => `
data: { banking_data: never }
score:
  logistic: { intercept: 2.5, terms: [{ feature: loan_terms, weight: 0 }] }
  calibration: { method: learned, level_sd: 1, slope_sd: 0.3 }
pricing:
  mode: expected_profit
  target_return: 0.08
  learning: { enabled: true, prior_sd: 1, explore_share: 1 }
${levelRule}
`;
const NO_BANK = { unavailable: { bankingData: true } } as const;

function decisions(levelRule: string): { made: Decision[]; learning: MarketLearning } {
  const compiled = compileText(strategy(levelRule));
  const learning = new MarketLearning();
  const made: Decision[] = [];
  for (let id = 1; id <= 40; id += 1) {
    const decision = withLearning(learning, () =>
      evaluate(loanRequest({ id, max_interest_rate: 0.3 + (id % 5) * 0.1 }), NO_BANK, compiled),
    );
    learning.offered(decision);
    made.push(decision);
  }
  return { made, learning };
}

const explored = (decision: Decision): boolean => decision.priceCurve?.learning?.exploration !== undefined;

describe('exploring under the level-uncertainty rule', () => {
  it('explores on its own: the draws differ from the greedy price', () => {
    const { made, learning } = decisions('');
    expect(made.filter(explored).length).toBeGreaterThan(5);
    expect(learning.existing('inline')?.snapshotState.explored).toBe(made.filter(explored).length);
  });

  it('a blend at a cold start (weight 0: cost-plus, whatever the draw) explores nothing and says nothing of it', () => {
    const { made, learning } = decisions('  level_uncertainty: { mode: blend, margin: 0.02, evidence_half: 600 }');
    const offers = made.filter((decision) => decision.action === 'offer');
    expect(offers.length).toBeGreaterThan(20);
    for (const decision of offers) {
      expect(explored(decision)).toBe(false);
      expect(decision.marketResponse?.explored).toBe(false);
      expect(decision.reasons.map(reasonText).join('; ')).not.toContain('exploring');
    }
    const state = learning.existing('inline')?.snapshotState;
    expect(state?.explored).toBe(0);
    expect(state?.explorationCostCents).toBe(0);
    // The value counted as offered is the offered price's, not the greedy one the rule replaced.
    const offeredValue = offers.reduce((sum, decision) => {
      const curve = decision.priceCurve;
      return curve === undefined || decision.rate === undefined ? sum : sum + curvePoint(curve, decision.rate).valueCents;
    }, 0);
    expect(state?.offeredValueCents).toBeCloseTo(offeredValue, 6);
  });

  it('a floor that moved only the draw counts the loss between the rates the floor leaves', () => {
    const { made } = decisions('  level_uncertainty: { mode: cost_plus_floor, quantile: 0.8 }');
    let checked = 0;
    let floorAboveDraw = 0;
    for (const decision of made) {
      const curve = decision.priceCurve;
      const exploration = curve?.learning?.exploration;
      if (curve === undefined || exploration === undefined || decision.rate === undefined) continue;
      // Whatever the floor did, the greedy price it left differs from the offered one, and the loss is theirs.
      expect(exploration.greedyRate).not.toBe(decision.rate);
      expect(exploration.lossCents).toBeCloseTo(
        curvePoint(curve, exploration.greedyRate).valueCents - curvePoint(curve, decision.rate).valueCents,
        6,
      );
      checked += 1;
      const level = decision.reasons.find((reason) => reason.code === 'price_level_uncertain');
      if (level?.code === 'price_level_uncertain' && level.mode === 'cost_plus_floor' && Number(level.floor) > Number(level.ep))
        floorAboveDraw += 1;
    }
    expect(checked).toBeGreaterThan(0);
    // The case this is about happened: the floor raised the draw (and left the greedy price above it).
    expect(floorAboveDraw).toBeGreaterThan(0);
  });
});
