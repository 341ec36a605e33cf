// The winner's-curse term (`pricing.winners_curse`; src/engine/market/repay-curse.ts): at w = 0
// it changes no price to the bit; a learned fall of P(repay | won) with the rate makes high
// rates worth less, so the optimum moves down (or the request is skipped); the Laplace update it
// shares with the take-up correction moves w towards what the funded loans show.
import { describe, expect, it } from 'vitest';
import { DEFAULT_MARKET_RESPONSE, parseStrategyText, type CompiledStrategy, type Decision } from '../../../src/engine/index.js';
import { seededRandom } from '../../../src/engine/market/seeded-normals.js';
import { curvePoint, optimalRate, type PriceCurve } from '../../../src/engine/pricing/expected-profit.js';
import { MarketLearning, withLearning } from '../../../src/engine/market/index.js';
import { curseObservationAt, fitCurse, wonRepayProbability } from '../../../src/engine/market/repay-curse.js';
import { columnsUnsupported } from '../../../src/backtest/tune/trial-columns.js';
import { strategyAt } from '../compile-text.js';
import { loanRequest } from '../fixtures.js';
import { reasonText } from '../../../src/domain/decision-reason.js';

const logit = (probability: number): number => Math.log(probability / (1 - probability));
const PRICING = '  mode: expected_profit\n  target_return: 0.05\n  recovery: 0.25\n  servicing_cost: 0.02\n';
const cursed = (lines: string): string => `${PRICING}  winners_curse:\n${lines}`;
const decide = (strategy: CompiledStrategy, id: number, learning?: MarketLearning): Decision =>
  withLearning(learning, () => strategy.evaluate(loanRequest({ id }), {}));

describe("pricing for the winner's curse", () => {
  it('leaves the score exactly as it is at w = 0, and every point of the price curve with it', () => {
    const random = seededRandom(11);
    for (let i = 0; i < 2000; i += 1) {
      const p = 0.5 + 0.5 * random();
      const rate = 0.03 + 0.5 * random();
      // Not through log-odds and back: that rounds the last bit of about a third of them.
      expect(wonRepayProbability(p, rate, 0.6, [0, 0, 0])).toBe(p);
      const economics = {
        probability: p,
        recovery: 0.2,
        servicingCost: 0.01,
        fundedCents: 100_000,
        repaidPrincipalCents: 105_000,
        terms: 12,
      };
      const curve: PriceCurve = {
        economics,
        targetReturn: 0.05,
        maxInterestRate: 0.6,
        market: DEFAULT_MARKET_RESPONSE,
        breakEvenRate: 0.1,
        low: 0.1,
        cap: 0.6,
        capName: 'max_interest_rate',
      };
      const cursed: PriceCurve = { ...curve, curse: { w: [0, 0, 0], evidence: 0 } };
      expect(curvePoint(cursed, rate)).toEqual(curvePoint(curve, rate));
      if (i % 50 === 0) expect(optimalRate(cursed)).toEqual(optimalRate(curve));
    }
  });

  it('changes no decision figure at w = 0, with or without a learner active', () => {
    for (const probability of [0.7, 0.85, 0.93, 0.98]) {
      const plain = strategyAt(logit(probability), PRICING);
      const on = strategyAt(logit(probability), cursed('    prior_sd: 1\n'));
      for (let id = 1; id <= 20; id += 1) {
        const expected = decide(plain, id);
        for (const learning of [undefined, new MarketLearning()]) {
          const got = decide(on, id, learning);
          expect({ ...got, strategy: expected.strategy, priceCurve: undefined }).toEqual({ ...expected, priceCurve: undefined });
          if (got.action === 'offer') expect(got.priceCurve?.curse?.w).toEqual([0, 0, 0]);
        }
      }
    }
  });

  it('prices lower, or skips, when only the worst borrowers accept high rates', () => {
    const plain = strategyAt(logit(0.9), PRICING);
    // P(repay | won) falls with the rate: about 0.94 at the lowest rate, the score's 0.9 half-way, 0.84 at the maximum.
    const falling = strategyAt(logit(0.9), cursed('    w: [0.6, -1.2, 0]\n'));
    let lower = 0;
    for (let id = 1; id <= 20; id += 1) {
      const before = decide(plain, id);
      const after = decide(falling, id);
      expect(before.action).toBe('offer');
      if (after.action !== 'offer') continue;
      expect(after.rate ?? 1).toBeLessThanOrEqual(before.rate ?? 0);
      if ((after.rate ?? 1) < (before.rate ?? 0)) lower += 1;
      expect(after.reasons.map(reasonText).join(' ')).toMatch(/P\(repay \| won\) 0\.\d\d against scored 0\.90 \(winner's curse, 0 loans\)/);
      // The same loan is worth less at the maximum than the score alone says.
      expect(wonRepayProbability(0.9, 0.5, 0.5, [0.6, -1.2, 0])).toBeLessThan(0.9);
    }
    expect(lower).toBeGreaterThan(0);
  });

  it('moves w towards what funded loans show, through the shared Laplace update', () => {
    // Loans won near the maximum repay 50 % of the time against a score of 0.9; near the floor, as scored.
    const loans = Array.from({ length: 400 }, (_, i) => {
      const high = i % 2 === 0;
      return { observation: curseObservationAt(high ? 0.45 : 0.06, 0.5, 0.9), repaid: high ? i % 4 === 0 : i % 20 !== 1 };
    });
    const state = fitCurse({ priorSd: 1, priorMean: [0, 0, 0] }, loans);
    expect(state.evidence).toBe(400);
    const w = state.posterior.mean;
    expect(wonRepayProbability(0.9, 0.45, 0.5, w)).toBeCloseTo(0.5, 1);
    expect(wonRepayProbability(0.9, 0.06, 0.5, w)).toBeCloseTo(0.9, 1);
  });

  it("keeps a tune's trials in order: a learning curse is not priced once per request over columns", () => {
    expect(columnsUnsupported(strategyAt(logit(0.9), cursed('    prior_sd: 1\n')))).toMatch(/pricing\.winners_curse/);
    expect(columnsUnsupported(strategyAt(logit(0.9), cursed('    enabled: false\n')))).toBeUndefined();
  });

  it('refuses the curse with a mode that prices no repayment chance per rate', () => {
    const text = `name: x\ndescription: x\nversion: "1"\nscore: { logistic: { intercept: 3, terms: [{ feature: loan_terms, weight: 0 }] } }\npricing:\n  target_return: 0.05\n  winners_curse: { prior_sd: 1 }\n`;
    expect(() => parseStrategyText(text, 'x.yaml')).toThrow(
      /pricing\.winners_curse: winners_curse needs mode expected_profit \(this pricing is cost_plus\)/,
    );
  });
});
