/**
 * `score.calibration`: the probability the score decides with is mapped (platt on log-odds, or
 * isotonic points) before min_probability and pricing, shown as the last contribution line, and
 * checked for shape (rising points, a positive slope).
 */
import { describe, expect, it } from 'vitest';
import { evaluate, parseStrategyText } from '../../src/engine/index.js';
import { interpolatePoints } from '../../src/engine/compile/compile-calibration.js';
import { compileText } from './compile-text.js';
import { loanRequest } from './fixtures.js';
import { reasonText } from '../../src/domain/decision-reason.js';

/** log-odds 2 for every request (p = 0.8808), whatever its features. */
const score = (calibration: string, minProbability = 0.5): string => `
score:
  logistic:
    intercept: 2
    terms:
      - { feature: credit_score_mid, weight: 0, missing: 0 }
${calibration}
  min_probability: ${minProbability}
pricing:
  target_return: 0.08
`;

const logistic = (x: number): number => 1 / (1 + Math.exp(-x));

describe('score.calibration', () => {
  it('platt: the probability decided with is 1 / (1 + e^-(a x log-odds + b)), shown as the last line', () => {
    const strategy = compileText(score('  calibration: { method: platt, a: 0.8, b: -0.5 }'));
    const decision = evaluate(loanRequest(), { unavailable: { bankingData: true } }, strategy);
    expect(decision.probability).toBeCloseTo(logistic(0.8 * 2 - 0.5), 12);
    const last = decision.contributions.at(-1);
    expect(last).toMatchObject({ feature: 'calibration.platt', model: 'calibration' });
    expect(last?.value).toBeCloseTo(logistic(2), 12);
    expect(last?.logOdds).toBeCloseTo(0.8 * 2 - 0.5 - 2, 12);
    expect(decision.reasons.map(reasonText)).toContain(`score probability ${logistic(1.1).toFixed(4)}`);
  });

  it('min_probability applies to the calibrated probability', () => {
    // Raw 0.8808 passes 0.85; calibrated to 0.7503 it does not.
    const raw = compileText(score('', 0.85));
    const calibrated = compileText(score('  calibration: { method: platt, a: 0.8, b: -0.5 }', 0.85));
    const request = loanRequest();
    expect(evaluate(request, { unavailable: { bankingData: true } }, raw).action).toBe('offer');
    const skipped = evaluate(request, { unavailable: { bankingData: true } }, calibrated);
    expect(skipped.action).toBe('skip');
    expect(skipped.reasons.map(reasonText).at(-1)).toBe('score probability 0.7503 < min_probability 0.85');
  });

  it('platt takes params', () => {
    const text = `params:\n  slope: { value: 0.5, min: 0.1, max: 2 }\n${score('  calibration: { method: platt, a: $slope, b: 0 }')}`;
    const strategy = compileText(text);
    expect(evaluate(loanRequest(), { unavailable: { bankingData: true } }, strategy).probability).toBeCloseTo(logistic(1), 12);
    expect(evaluate(loanRequest(), { unavailable: { bankingData: true } }, strategy.withParams({ slope: 1.5 })).probability).toBeCloseTo(
      logistic(3),
      12,
    );
  });

  it('isotonic: straight lines between the points, flat beyond the ends', () => {
    const points: Array<[number, number]> = [
      [0.5, 0.4],
      [0.8, 0.7],
      [0.9, 0.76],
    ];
    expect(interpolatePoints(points, 0.2)).toBe(0.4);
    expect(interpolatePoints(points, 0.65)).toBeCloseTo(0.55, 12);
    expect(interpolatePoints(points, 0.85)).toBeCloseTo(0.73, 12);
    expect(interpolatePoints(points, 0.99)).toBe(0.76);
    const strategy = compileText(score('  calibration: { method: isotonic, points: [[0.5, 0.4], [0.8, 0.7], [0.9, 0.76]] }'));
    const decision = evaluate(loanRequest(), { unavailable: { bankingData: true } }, strategy);
    expect(decision.probability).toBeCloseTo(0.7 + (0.06 * (logistic(2) - 0.8)) / 0.1, 12);
    expect(decision.contributions.at(-1)?.feature).toBe('calibration.isotonic');
  });

  it('refuses points that fall, a slope of 0 and probabilities of 0 or 1', () => {
    const problems = (calibration: string): string => {
      try {
        parseStrategyText(`name: x\ndescription: x\nversion: "1"\n${score(calibration)}`, 'x.yaml');
        return '';
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect(problems('  calibration: { method: isotonic, points: [[0.5, 0.6], [0.4, 0.5]] }')).toContain(
      'score.calibration.points[1][0]: score probabilities must rise: 0.4 follows 0.5',
    );
    expect(problems('  calibration: { method: isotonic, points: [[0.5, 0.6], [0.7, 0.5]] }')).toContain(
      'score.calibration.points[1][1]: calibrated probabilities must not fall: 0.5 follows 0.6',
    );
    expect(problems('  calibration: { method: isotonic, points: [[0.5, 0], [0.7, 0.5]] }')).toContain(
      '0 is out of bounds (a calibrated probability: above 0 and below 1)',
    );
    expect(problems('  calibration: { method: platt, a: 0, b: 1 }')).toContain(
      'score.calibration.a: 0 is out of bounds (a slope: above 0)',
    );
    expect(problems('  calibration: { method: plat, a: 1, b: 1 }')).toContain('expected { method: platt');
  });
});
