// Expected-profit pricing with `pricing.learning`: off (or with no learners active) it is the
// configured pricing exactly; after learning that good borrowers refuse high rates it prices
// them lower and sees a high rate as one only poor borrowers take; exploration stays in budget.
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../src/engine/market/seeded-normals.js';
import { DEFAULT_MARKET_RESPONSE, parseStrategyText, type CompiledStrategy, type Decision } from '../../../src/engine/index.js';
import { MIN_OFFER_RATE } from '../../../src/math/index.js';
import { expectedAcceptCurve } from '../../../src/engine/market-response.js';
import { learnedAcceptCurve, MarketLearning, observationAt, withLearning } from '../../../src/engine/market/index.js';
import { strategyAt } from '../compile-text.js';
import { loanRequest } from '../fixtures.js';
import { reasonText } from '../../../src/domain/decision-reason.js';

const logit = (probability: number): number => Math.log(probability / (1 - probability));
const PRICING = '  mode: expected_profit\n  target_return: 0.05\n  recovery: 0.25\n  servicing_cost: 0.02\n';
const learningPricing = (lines: string): string => `${PRICING}  learning:\n${lines}`;
const GOOD = 0.98;
const POOR = 0.8;

const decide = (strategy: CompiledStrategy, id: number, learning?: MarketLearning): Decision =>
  withLearning(learning, () => strategy.evaluate(loanRequest({ id }), {}));

describe('pricing over a learned market response', () => {
  it('prices exactly as configured when learning is off, or when no learner is active', () => {
    const plain = strategyAt(logit(0.93), PRICING);
    const off = strategyAt(logit(0.93), learningPricing('    enabled: false\n'));
    const on = strategyAt(logit(0.93), learningPricing('    prior_sd: 1\n'));
    for (let id = 1; id <= 20; id += 1) {
      const expected = decide(plain, id);
      // The files differ (so do their content hashes); every decision figure is the same.
      expect({ ...decide(off, id, new MarketLearning()), strategy: expected.strategy }).toEqual(expected);
      expect(decide(on, id).rate).toBe(expected.rate);
      expect(decide(on, id).reasons).toEqual(expected.reasons);
    }
  });

  it('refuses learning with a mode that weighs no acceptance', () => {
    const text = `name: x\ndescription: x\nversion: "1"\nscore: { logistic: { intercept: 3, terms: [{ feature: loan_terms, weight: 0 }] } }\npricing:\n  target_return: 0.05\n  learning: { prior_sd: 1 }\n`;
    expect(() => parseStrategyText(text, 'x.yaml')).toThrow(
      /pricing\.learning: learning needs mode expected_profit \(this pricing is cost_plus\)/,
    );
  });

  it('learns that good borrowers refuse high rates: prices them lower, and sees a high rate as one only poor borrowers take', () => {
    const settings = learningPricing('    prior_sd: 2\n    explore_share: 0\n');
    const good = strategyAt(logit(GOOD), settings);
    const poor = strategyAt(logit(POOR), settings);
    const learning = new MarketLearning();
    // Both strategies are named "inline": one learner, as for one strategy meeting both borrowers.
    const before = decide(good, 1, learning);
    const poorBefore = decide(poor, 1, learning);
    // The world: poor borrowers answer as the prior says; good ones take nothing above 35 % of the way to the maximum.
    const random = seededRandom(7);
    const maxRate = 0.6;
    for (let n = 0; n < 3000; n += 1) {
      const pd = random() < 0.5 ? 1 - GOOD : 1 - POOR;
      const rate = MIN_OFFER_RATE + (0.1 + 0.85 * random()) * (maxRate - MIN_OFFER_RATE);
      const prior = expectedAcceptCurve(maxRate, pd, DEFAULT_MARKET_RESPONSE)(rate);
      const position = (rate - MIN_OFFER_RATE) / (maxRate - MIN_OFFER_RATE);
      const truth = pd < 0.1 && position > 0.35 ? 0.02 * prior : prior;
      learning.observe('inline', observationAt(rate, maxRate, pd, DEFAULT_MARKET_RESPONSE), random() < truth);
    }
    const after = decide(good, 2, learning);
    const poorAfter = decide(poor, 2, learning);
    expect(after.rate).toBeLessThan(before.rate ?? 0);
    // From 0.53 to about 0.28: the fitted slope is smooth, so it stops short of the cliff at 0.23.
    expect((after.rate ?? 1) - MIN_OFFER_RATE).toBeLessThan(0.5 * (maxRate - MIN_OFFER_RATE));
    expect(after.marketResponse).toEqual({ version: 3000, evidence: 3000, explored: false });
    expect(after.reasons.map(reasonText).at(-1)).toContain('; market learned v3000 (3000 fates)');
    // At the poor borrower's price the learned chance is near the prior's for a poor borrower, far below it for a good one.
    const highRate = poorAfter.rate ?? 0;
    const curve = poorAfter.priceCurve;
    if (curve?.learning === undefined) throw new Error('the poor borrower was not priced by the learner');
    const learnedGood = learnedAcceptCurve(maxRate, 1 - GOOD, DEFAULT_MARKET_RESPONSE, curve.learning.posterior)(highRate);
    const learnedPoor = learnedAcceptCurve(maxRate, 1 - POOR, DEFAULT_MARKET_RESPONSE, curve.learning.posterior)(highRate);
    expect(learnedGood).toBeLessThan(0.25 * expectedAcceptCurve(maxRate, 1 - GOOD, DEFAULT_MARKET_RESPONSE)(highRate));
    expect(Math.abs(learnedPoor - expectedAcceptCurve(maxRate, 1 - POOR, DEFAULT_MARKET_RESPONSE)(highRate))).toBeLessThan(0.05);
    // The poor borrower keeps a high price (0.60 before, about 0.54 after), far above the good one's.
    expect(poorAfter.rate ?? 0).toBeGreaterThan((after.rate ?? 1) + 0.2);
    expect(poorBefore.rate).toBe(0.6);
  });

  it('explores within explore_share of the expected profit offered, seeded by request and version', () => {
    const strategy = strategyAt(logit(0.93), learningPricing('    prior_sd: 2\n    explore_share: 0.1\n'));
    const learning = new MarketLearning();
    let explored = 0;
    for (let id = 1; id <= 300; id += 1) {
      const decision = decide(strategy, id, learning);
      // Priced twice by the same version: the same draw, the same rate.
      expect(decide(strategy, id, learning).rate).toBe(decision.rate);
      if (decision.marketResponse?.explored === true) explored += 1;
      learning.offered(decision);
    }
    const state = learning.existing('inline')?.snapshotState;
    expect(explored).toBeGreaterThan(0);
    expect(state?.explored).toBe(explored);
    expect(state?.explorationCostCents ?? Infinity).toBeLessThanOrEqual(0.1 * (state?.offeredValueCents ?? 0));
  });
});

describe('a learner and the market response it corrects', () => {
  it('starts again from its prior when the strategy now prices over another configured response', () => {
    const learning = new MarketLearning();
    const first = strategyAt(logit(0.93), learningPricing('    prior_sd: 1\n    explore_share: 0\n'));
    decide(first, 1, learning);
    learning.observe('inline', observationAt(0.3, 0.6, 0.07, DEFAULT_MARKET_RESPONSE), false);
    expect(decide(first, 2, learning).marketResponse).toEqual({ version: 1, evidence: 1, explored: false });
    // The same strategy name, a reloaded file with another take-up midpoint: the old correction does not apply.
    const reloaded = strategyAt(
      logit(0.93),
      `${learningPricing('    prior_sd: 1\n    explore_share: 0\n')}  market: { take_up: { midpoint: 0.5 } }\n`,
    );
    expect(decide(reloaded, 3, learning).marketResponse).toEqual({ version: 0, evidence: 0, explored: false });
  });
});
