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
  it('prices with the prior outside the decide step: the mean default over the prior at the score, as a learned line', () => {
    const decision = evaluate(loanRequest(), NO_BANK, compileText(strategy(LEARNED)));
    // logit(pd) = a − 2.5 b with a ~ N(0, 1), b ~ N(1, 0.3²): variance 1 + 0.09 × 2.5² = 1.5625.
    // Its mean default is σ(−2.5 / √(1 + π × 1.5625 / 8)) = 12.3 %, above the score's own 7.6 %:
    // the level is unknown, and a default rate can be far higher more easily than far lower.
    const meanDefault = logistic(-2.5 / Math.sqrt(1 + (Math.PI * 1.5625) / 8));
    expect(meanDefault).toBeCloseTo(0.1226, 4);
    expect(decision.probability).toBeCloseTo(1 - meanDefault, 12);
    expect(decision.contributions.at(-1)).toMatchObject({ feature: 'calibration.learned', model: 'calibration' });
    expect(decision.contributions.at(-1)?.logOdds).toBeCloseTo(Math.log((1 - meanDefault) / meanDefault) - 2.5, 10);
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
    const [vaa = 0, vab = 0, , vbb = 0] = learner.posterior.cov;
    const lines = decision.contributions.map((line) => line.feature);
    expect(lines.slice(-2)).toEqual(['calibration.platt', 'calibration.learned']);
    // Seed: 2.5 − 0.5 = 2 log-odds of repayment; learned: logit(pd) = a + b · (−2), normal with
    // variance vaa − 4 vab + 4 vbb; priced with its mean default.
    const variance = vaa - 4 * vab + 4 * vbb;
    expect(decision.probability).toBeCloseTo(1 - logistic((a - 2 * b) / Math.sqrt(1 + (Math.PI * variance) / 8)), 10);
    expect(decision.calibration).toMatchObject({ version: 1, loans: 10, defaults: 5 });
    expect(decision.calibration?.scoreDefault).toBeCloseTo(1 - logistic(2), 12);
  });
});

describe('pricing.level_uncertainty', () => {
  const priced = (extra: string) => evaluate(loanRequest(), NO_BANK, compileText(strategy(LEARNED, extra)));

  it('cost_plus_floor: never below the break-even at the pessimistic quantile, and the reason says so', () => {
    const plain = priced('');
    // At the 0.85 quantile: the posterior's mean default already prices above the 0.8 quantile's break-even here.
    const floored = priced('  level_uncertainty: { mode: cost_plus_floor, quantile: 0.85 }');
    const texts = floored.reasons.map(reasonText);
    const level = texts.find((text) => text.startsWith('price level uncertain'));
    expect(level).toMatch(
      /^price level uncertain v0 \(0 loans, 0 loan-months\): default 0\.1226, sd 1\.25; floor (\S+) at q0\.85 default (\S+), expected_profit (\S+)$/,
    );
    const [, floor = '', pessimistic = '', ep = ''] = /floor (\S+) at q0\.85 default (\S+), expected_profit (\S+)$/.exec(level ?? '') ?? [];
    expect(Number(pessimistic)).toBeGreaterThan(0.1226);
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
