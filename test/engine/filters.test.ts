import { describe, expect, it } from 'vitest';
import { compileText, MINIMAL_SCORE } from './compile-text.js';
import { bankingData, loanRequest } from './fixtures.js';
import { reasonText } from '../../src/domain/decision-reason.js';

function decide(filters: string, request = loanRequest(), enrichment = {}) {
  const strategy = compileText(`data: { banking_data: never }\nfilters:\n${filters}${MINIMAL_SCORE}`);
  return strategy.evaluate(request, enrichment);
}

describe('filters', () => {
  it('min fails below and passes at the bound', () => {
    expect(decide('  - { feature: credit_score_low, min: 660 }').reasons.map(reasonText)).toEqual(['filter credit_score_low < 660']);
    expect(decide('  - { feature: credit_score_low, min: 650 }').action).toBe('offer');
  });

  it('max fails above and passes at the bound', () => {
    expect(decide('  - { feature: hard_inquiries, max: 1 }').reasons.map(reasonText)).toEqual(['filter hard_inquiries > 1']);
    expect(decide('  - { feature: hard_inquiries, max: 2 }').action).toBe('offer');
  });

  it('in and not_in compare numbers, strings and booleans', () => {
    expect(decide('  - { feature: risk_level, in: [0] }').reasons.map(reasonText)).toEqual(['filter risk_level not in [0]']);
    expect(decide('  - { feature: risk_level, in: [0, 1] }').action).toBe('offer');
    expect(decide('  - { feature: risk_level_name, not_in: [medium, high] }').reasons.map(reasonText)).toEqual([
      'filter risk_level_name in [medium, high]',
    ]);
    expect(decide('  - { feature: crypto_backed, in: [false] }').action).toBe('offer');
    expect(decide('  - { feature: crypto_backed, in: [true] }').reasons.map(reasonText)).toEqual(['filter crypto_backed not in [true]']);
  });

  it('required fails only when the feature is absent', () => {
    const noIncome = loanRequest({ borrower: { annual_income: null } });
    expect(decide('  - { feature: annual_income, required: true }').action).toBe('offer');
    expect(decide('  - { feature: annual_income, required: true }', noIncome).reasons.map(reasonText)).toEqual([
      'filter annual_income missing',
    ]);
    expect(decide('  - { feature: annual_income, required: true, missing: pass }', noIncome).reasons.map(reasonText)).toEqual([
      'filter annual_income missing',
    ]);
  });

  it('an absent feature fails by default and passes with missing: pass', () => {
    const noInquiries = loanRequest({ borrower: { hard_inquiries: null } });
    expect(decide('  - { feature: hard_inquiries, max: 3 }', noInquiries).reasons.map(reasonText)).toEqual([
      'filter hard_inquiries missing',
    ]);
    expect(decide('  - { feature: hard_inquiries, max: 3, missing: pass }', noInquiries).action).toBe('offer');
  });

  it('reports every failing free filter at once', () => {
    const decision = decide(
      '  - { feature: risk_level, in: [0] }\n  - { feature: credit_score_low, min: 700 }\n  - { feature: loan_terms, max: 24 }',
    );
    expect(decision.action).toBe('skip');
    expect(decision.reasons.map(reasonText)).toEqual(['filter risk_level not in [0]', 'filter credit_score_low < 700']);
  });

  it('applies banking filters to bought data, and their missing rule without it', () => {
    const filters = '  - { feature: negative_balance_count, max: 0 }';
    expect(decide(filters, loanRequest(), { bankingData: bankingData() }).reasons.map(reasonText)).toEqual([
      'filter negative_balance_count > 0',
    ]);
    expect(decide(filters).reasons.map(reasonText)).toEqual(['filter negative_balance_count missing']);
  });
});
