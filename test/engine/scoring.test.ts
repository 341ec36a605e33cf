import { describe, expect, it } from 'vitest';
import { compileText } from './compile-text.js';
import { loanRequest } from './fixtures.js';
import { reasonText } from '../../src/domain/decision-reason.js';

const PRICING = 'pricing:\n  target_return: 0.05\n';

describe('scorecard', () => {
  const strategy = compileText(`data: { banking_data: never }
score:
  scorecard:
    base_points: 600
    base_odds: 20
    points_to_double_odds: 40
    terms:
      - feature: credit_score_mid
        bins: [{ below: 650, points: -20 }, { below: 700, points: 20 }, { points: 40 }]
      - feature: risk_level_name
        levels: { low: 10, medium: 0, high: -30 }
      - feature: hard_inquiries
        per_unit: -5
        center: 1
      - feature: svc_score
        per_unit: 1
        missing: -15
${PRICING}`);

  it('adds points and turns them into odds by hand', () => {
    const decision = strategy.evaluate(loanRequest({ borrower: { svc_score: null } }), {});
    // mid 675 -> 20; medium -> 0; inquiries 2 -> -5; svc_score absent -> -15; total 0 points
    expect(decision.contributions.map((line) => [line.feature, line.points])).toEqual([
      ['scorecard.base', 600],
      ['credit_score_mid', 20],
      ['risk_level_name', 0],
      ['hard_inquiries', -5],
      ['svc_score', -15],
    ]);
    expect(decision.contributions[4]?.missing).toBe(true);
    // odds 20 * 2^(0/40) = 20 -> 20/21
    expect(decision.probability).toBeCloseTo(20 / 21, 12);
  });

  it('doubles the odds every points_to_double_odds', () => {
    const decision = strategy.evaluate(loanRequest({ borrower: { svc_score: 15, credit_score: '720-760' } }), {});
    // 40 + 0 - 5 + 15 = 50 points -> odds 20 * 2^(50/40)
    const odds = 20 * 2 ** (50 / 40);
    expect(decision.probability).toBeCloseTo(odds / (1 + odds), 12);
    const total = decision.contributions.reduce((sum, line) => sum + line.logOdds, 0);
    expect(total).toBeCloseTo(Math.log(odds), 12);
  });
});

describe('logistic model', () => {
  const strategy = compileText(`data: { banking_data: never }
score:
  logistic:
    intercept: 1.5
    terms:
      - { feature: credit_score_mid, weight: 0.01, center: 650, clamp: [600, 660] }
      - { feature: annual_income, weight: 0.5, transform: log1p, center: 10 }
      - { feature: provider_a_score, weight: 0.1, missing: -0.25 }
${PRICING}`);

  it('sums weighted, clamped, transformed terms by hand', () => {
    const decision = strategy.evaluate(loanRequest(), {});
    // mid 675 clamped to 660 -> 0.1; ln(1 + 54000) - 10 = 0.896787 -> 0.448394; provider A absent -> -0.25
    const logOdds = 1.5 + 0.1 + 0.5 * (Math.log1p(54000) - 10) - 0.25;
    expect(decision.contributions.map((line) => line.feature)).toEqual([
      'logistic.intercept',
      'credit_score_mid',
      'annual_income',
      'provider_a_score',
    ]);
    expect(decision.contributions[1]?.logOdds).toBeCloseTo(0.1, 12);
    expect(decision.probability).toBeCloseTo(1 / (1 + Math.exp(-logOdds)), 12);
  });
});

describe('both models', () => {
  it('adds their log-odds', () => {
    const strategy = compileText(`data: { banking_data: never }
score:
  scorecard:
    base_odds: 4
    terms: [{ feature: loan_terms, per_unit: 0 }]
  logistic:
    intercept: 0.5
    terms: [{ feature: loan_terms, weight: 0 }]
${PRICING}`);
    const decision = strategy.evaluate(loanRequest(), {});
    expect(decision.probability).toBeCloseTo(1 / (1 + Math.exp(-(Math.log(4) + 0.5))), 12);
  });

  it('skips below min_probability', () => {
    const strategy = compileText(`data: { banking_data: never }
score:
  logistic: { intercept: 1, terms: [{ feature: loan_terms, weight: 0 }] }
  min_probability: 0.75
${PRICING}`);
    expect(strategy.evaluate(loanRequest(), {}).reasons.map(reasonText)).toEqual(['score probability 0.7311 < min_probability 0.75']);
  });
});
