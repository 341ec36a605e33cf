/**
 * `score.calibration: { method: learned }` and `pricing.level_uncertainty` in the engine: the
 * learned line applies the learner's posterior (the prior without active learners), its seed
 * stays a line of its own underneath, the level's uncertainty moves an expected-profit price as
 * each mode says and the reason says so, and the cross-field rules refuse what cannot work.
 */
import { describe, expect, it } from 'vitest';
import { evaluate, parseStrategyText } from '../../src/engine/index.js';
import { reasonText } from '../../src/domain/decision-reason.js';
import { withLearning } from '../../src/engine/market/active-learning.js';
import { MarketLearning } from '../../src/engine/market/index.js';
import { compileText } from './compile-text.js';
import { columnsUnsupported } from '../../src/backtest/tune/trial-columns.js';
import { loanRequest } from './fixtures.js';

/** A constant score of log-odds 2.5 (default 7.6 %) under `calibration`, priced for expected profit with `extra`. */
const strategy = (calibration: string, extra = ''): string => `
data: { banking_data: never }
score:
  logistic: { intercept: 2.5, terms: [{ feature: loan_terms, weight: 0 }] }
${calibration}
pricing:
  mode: expected_profit
  target_return: 0.08
${extra}
`;
const LEARNED = '  calibration: { method: learned, level_sd: 1, slope_sd: 0.3 }';
const NO_BANK = { unavailable: { bankingData: true } } as const;
const logistic = (x: number): number => 1 / (1 + Math.exp(-x));

describe('a learned calibration', () => {
  it('prices with the prior outside the decide step: the score itself, as a learned line that adds nothing', () => {
    const decision = evaluate(loanRequest(), NO_BANK, compileText(strategy(LEARNED)));
    expect(decision.probability).toBeCloseTo(logistic(2.5), 12);
    expect(decision.contributions.at(-1)).toMatchObject({ feature: 'calibration.learned', model: 'calibration', logOdds: 0 });
    expect(decision.calibration).toEqual({ version: 0, loans: 0, defaults: 0, loanMonths: 0, scoreDefault: 1 - logistic(2.5) });
  });

  it("keeps a tune's trials in order: a learned level is not priced once per request over columns", () => {
    expect(columnsUnsupported(compileText(strategy(LEARNED)))).toMatch(/score\.calibration method learned/);
    expect(columnsUnsupported(compileText(strategy('')))).toBeUndefined();
  });

  it('applies the active learner’s level and slope, after its seed', () => {
    const text = strategy('  calibration: { method: learned, level_sd: 1, slope_sd: 0.3, seed: { method: platt, a: 1, b: -0.5 } }');
    const compiled = compileText(text);
    const learning = new MarketLearning();
    const learner = learning.calibration.learnerFor('inline', { levelSd: 1, slopeSd: 0.3, levelMean: 0 });
    // Ten loans of the same score, half defaulted early: the level moves up.
    for (let i = 0; i < 10; i += 1) learner.funded(`L${i}`, 0.12, 12);
    for (let i = 0; i < 10; i += 1) {
      if (i % 2 === 0) learner.defaulted(`L${i}`, 2);
      else learner.paid(`L${i}`, 12);
    }
    learner.refitIfDue(0);
    const decision = withLearning(learning, () => evaluate(loanRequest(), NO_BANK, compiled));
    const [a = 0, b = 1] = learner.posterior.mean;
    const lines = decision.contributions.map((line) => line.feature);
    expect(lines.slice(-2)).toEqual(['calibration.platt', 'calibration.learned']);
    // Seed: 2.5 − 0.5 = 2 log-odds of repayment; learned: logit(pd) = a + b · (−2).
    expect(decision.probability).toBeCloseTo(1 - logistic(a - 2 * b), 10);
    expect(decision.calibration).toMatchObject({ version: 1, loans: 10, defaults: 5 });
    expect(decision.calibration?.scoreDefault).toBeCloseTo(1 - logistic(2), 12);
  });
});

describe('pricing.level_uncertainty', () => {
  const priced = (extra: string) => evaluate(loanRequest(), NO_BANK, compileText(strategy(LEARNED, extra)));

  it('cost_plus_floor: never below the break-even at the pessimistic quantile, and the reason says so', () => {
    const plain = priced('');
    const floored = priced('  level_uncertainty: { mode: cost_plus_floor, quantile: 0.8 }');
    const texts = floored.reasons.map(reasonText);
    const level = texts.find((text) => text.startsWith('price level uncertain'));
    expect(level).toMatch(
      /^price level uncertain v0 \(0 loans, 0 loan-months\): default 0\.0759, sd \S+; floor (\S+) at q0\.80 default (\S+), expected_profit (\S+)$/,
    );
    const [, floor = '', pessimistic = '', ep = ''] = /floor (\S+) at q0\.80 default (\S+), expected_profit (\S+)$/.exec(level ?? '') ?? [];
    expect(Number(pessimistic)).toBeGreaterThan(0.0759);
    expect(Number(ep)).toBe(plain.rate);
    expect(floored.rate).toBe(Math.max(Number(ep), Number(floor)));
    expect(floored.rate ?? 0).toBeGreaterThan(plain.rate ?? 0);
    // A floor above the cap (the 0.9 quantile at a cold start) is a skip that says why.
    const refused = priced('  level_uncertainty: { mode: cost_plus_floor, quantile: 0.9 }');
    expect(refused.action).toBe('skip');
    expect(refused.reasons.map((reason) => reason.code).slice(-2)).toEqual(['price_level_uncertain', 'price_break_even_above_cap']);
    // Without the option the decision is exactly today's: no reason added, the same rate.
    expect(plain.reasons.map(reasonText).some((text) => text.startsWith('price level uncertain'))).toBe(false);
  });

  it('blend: cost-plus plus the margin at a cold start', () => {
    const blended = priced('  level_uncertainty: { mode: blend, margin: 0.02, evidence_half: 600 }');
    const level = blended.reasons.map(reasonText).find((text) => text.startsWith('price level uncertain')) ?? '';
    const [, weight = '', ep = '', costPlus = ''] = /blend (\S+) of expected_profit (\S+) over cost-plus (\S+)$/.exec(level) ?? [];
    expect(weight).toBe('0.00');
    expect(blended.rate).toBe(Number(costPlus));
    expect(Number(costPlus)).toBeCloseTo(Math.ceil(((blended.requiredRate ?? 0) + 0.02) * 10_000 - 1e-9) / 10_000, 10);
    expect(Number(ep)).not.toBe(blended.rate);
  });

  it('is refused without a learned calibration or outside expected_profit', () => {
    const text = (body: string) => `name: x\ndescription: x\nversion: "1"\n${body}`;
    expect(() => parseStrategyText(text(strategy('', '  level_uncertainty: { mode: blend }')), 'x.yaml')).toThrow(
      /pricing\.level_uncertainty: level_uncertainty prices the uncertainty of a learned default level/,
    );
    const costPlus = strategy(LEARNED).replace('mode: expected_profit', 'mode: cost_plus') + '  level_uncertainty: { mode: blend }\n';
    expect(() => parseStrategyText(text(costPlus), 'x.yaml')).toThrow(/level_uncertainty needs mode expected_profit/);
  });
});
