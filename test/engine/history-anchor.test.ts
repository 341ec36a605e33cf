/**
 * `score.calibration.history_anchor` (src/engine/market/history-anchor.ts): the rates of the
 * borrower's completed loans, read after the lender's costs, blended into the learned level by
 * how much each knows; the decision's probability, price and reasons read the blended level; no
 * history, no change; the lender's own loans take over.
 */
import { describe, expect, it } from 'vitest';
import { reasonText } from '../../src/domain/decision-reason.js';
import { evaluate, parseStrategyText } from '../../src/engine/index.js';
import { withLearning } from '../../src/engine/market/active-learning.js';
import { meanDefaultLogOdds } from '../../src/engine/market/calibration-learner.js';
import { impliedDefault } from '../../src/engine/market/history-anchor.js';
import { MarketLearning } from '../../src/engine/market/index.js';
import { reasonWords } from '../../src/log/human-reasons.js';
import { requiredRate } from '../../src/math/index.js';
import { compileText } from './compile-text.js';
import { historyItem, loanRequest } from './fixtures.js';

/** A constant score of log-odds 2.5 (default 7.6 %), learned calibration, expected-profit pricing. */
const strategy = (anchor: string, data = 'data: { banking_data: never, borrower_history: after_filters }'): string => `
${data}
score:
  logistic: { intercept: 2.5, terms: [{ feature: loan_terms, weight: 0 }] }
  calibration: { method: learned, level_sd: 1, slope_sd: 0.3${anchor} }
pricing:
  mode: expected_profit
  target_return: 0.08
  recovery: 0.25
  servicing_cost: 0.02
  level_uncertainty: { mode: cost_plus_floor, quantile: 0.8 }
`;
const ANCHORED = compileText(strategy(', history_anchor: { sd: 1 }'));
const PLAIN = compileText(strategy(''));
const logistic = (x: number): number => 1 / (1 + Math.exp(-x));
const logit = (p: number): number => Math.log(p / (1 - p));
/** The fixture request's loan: 1,050.00 funded and repaid over 12 months. */
const LOAN = { targetReturn: 0.08, recovery: 0.25, servicingCost: 0.02, fundedCents: 105_000, repaidPrincipalCents: 105_000, terms: 12 };
const history = (...rates: string[]) => ({ borrowerHistory: rates.map((rate) => historyItem('500.00', rate)) });
const SETTINGS = { levelSd: 1, slopeSd: 0.3, levelMean: 0 };
/** Learners that have seen past prices follow the score one for one (anchor-relation.ts: trust 1). */
function trusting(): MarketLearning {
  const learning = new MarketLearning();
  const learner = learning.calibration.learnerFor('inline', SETTINGS);
  for (let x = -4; x <= -1; x += 0.5) learner.historyRead(1, x, x);
  return learning;
}
/** The anchored strategy's decision, with past prices trusted. */
const anchoredDecision = (enrichment: Parameters<typeof evaluate>[1]) =>
  withLearning(trusting(), () => evaluate(loanRequest(), enrichment, ANCHORED));

describe('the history anchor', () => {
  it('reads a past rate as the default at which it just covers the lender’s costs on this loan', () => {
    for (const rate of [0.2, 0.3, 0.45]) {
      const implied = impliedDefault(rate, LOAN);
      expect(requiredRate(0.08, { ...LOAN, probability: 1 - implied })).toBeCloseTo(rate, 9);
    }
    // A rate below the lender's costs says "safe", not "never defaults".
    expect(impliedDefault(0.03, LOAN)).toBe(0.005);
  });

  it('blends the implied default into the level by the evidence each has, and says so beside the score', () => {
    const plain = evaluate(loanRequest(), history('0.4500', '0.4500', '0.4500'), PLAIN);
    const anchored = anchoredDecision(history('0.4500', '0.4500', '0.4500'));
    // Prior at the score: logit(pd) ~ N(−2.5, 1 + 0.09 × 2.5²). Three past loans at 45 %, no spread:
    // the measurement's variance is 1² + (2 × 1² + 0) / (2 + 2) / 3, its mean logit(implied).
    const implied = impliedDefault(0.45, LOAN);
    const v = 1.5625;
    const anchorVariance = 1 + 0.5 / 3;
    const weight = v / (v + anchorVariance);
    const mean = -2.5 + weight * (logit(implied) + 2.5);
    const variance = v * (1 - weight);
    expect(anchored.probability).toBeCloseTo(1 - logistic(meanDefaultLogOdds(mean, variance)), 10);
    // 45 % on a 12-month loan implies more default than the score's level: the probability falls.
    expect(implied).toBeGreaterThan(0.15);
    expect(anchored.probability ?? 1).toBeLessThan(plain.probability ?? 0);
    expect(anchored.contributions.at(-1)).toMatchObject({ feature: 'calibration.history_anchor', model: 'calibration' });
    // Its value is the probability before it, as every calibration line's: the learned level's alone.
    expect(anchored.contributions.at(-1)?.value).toBeCloseTo(plain.probability ?? 0, 12);
    const texts = anchored.reasons.map(reasonText);
    expect(texts[1]).toBe(`score history anchor 3 loans: implied default ${implied.toFixed(4)}, weight ${weight.toFixed(2)}`);
    expect(reasonWords(anchored.reasons[1]!)).toMatch(
      /^the rates of the borrower's 3 completed loans imply 16\.73 % default after this lender's costs, weighed 57 % against the learned default level$/,
    );
    // The price reads the same blended level: the reason's default and sd are the blended ones.
    const level = texts.find((text) => text.startsWith('price level uncertain'));
    expect(level).toContain(`sd ${Math.sqrt(variance).toFixed(2)}`);
    expect(anchored.rate).not.toBe(plain.rate);
  });

  it('weighs scattered past prices less than consistent ones', () => {
    const weightOf = (...rates: string[]): number =>
      Number(/weight (\S+)$/.exec(anchoredDecision(history(...rates)).reasons.map(reasonText)[1] ?? '')?.[1]);
    expect(weightOf('0.0800', '0.3500', '0.6000')).toBeLessThan(weightOf('0.2500', '0.2500', '0.2500') - 0.1);
  });

  it('changes nothing without a history: none fetched, none there, or no anchor set', () => {
    for (const enrichment of [{ borrowerHistory: [] }, { unavailable: { borrowerHistory: true } }]) {
      const anchored = anchoredDecision(enrichment);
      const plain = evaluate(loanRequest(), enrichment, PLAIN);
      expect({ ...anchored, strategy: undefined }).toEqual({ ...plain, strategy: undefined });
      expect(anchored.reasons.some((reason) => reason.code === 'score_history_anchor')).toBe(false);
    }
  });

  it('hands over to the learned level as the lender’s own loans accrue', () => {
    const learning = trusting();
    const learner = learning.calibration.learnerFor('inline', SETTINGS);
    const weightNow = (): number =>
      Number(
        /weight (\S+)$/.exec(
          withLearning(learning, () => evaluate(loanRequest(), history('0.3000', '0.3000'), ANCHORED)).reasons.map(reasonText)[1] ?? '',
        )?.[1],
      );
    const cold = weightNow();
    for (let i = 0; i < 400; i += 1) learner.funded(`L${i}`, 0.076, 12);
    for (let i = 0; i < 400; i += 1) {
      if (i % 8 === 0) learner.defaulted(`L${i}`, 3);
      else learner.paid(`L${i}`, 12);
    }
    learner.refitIfDue(0);
    expect(cold).toBeGreaterThan(0.5);
    expect(weightNow()).toBeLessThan(cold / 3);
  });

  it('is refused when the strategy does not fetch the borrower history', () => {
    const text = `name: x\ndescription: x\nversion: "1"\n${strategy(', history_anchor: { sd: 1 }', 'data: { banking_data: never }')}`;
    expect(() => parseStrategyText(text, 'x.yaml')).toThrow(
      /history_anchor reads the borrower's completed loans: set data\.borrower_history/,
    );
  });
});
