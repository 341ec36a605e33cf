/**
 * The poll's list filters: each strategy's risk-level and amount filters as a restriction, and
 * their union over the active strategies. A request any strategy could accept must be listed.
 */
import { describe, expect, it } from 'vitest';
import { compileStrategy, parseStrategyText } from '../../src/engine/index.js';
import type { ListRestriction } from '../../src/domain/index.js';
import { encodeLoanRequestFilters, unionListFilters } from '../../src/service/index.js';

function restrictionOf(filters: string, params = ''): ListRestriction | undefined {
  const text = `name: s\ndescription: test\nversion: "1"\n${params}\nfilters:\n${filters}\ndata: { banking_data: never }\nscore: { logistic: { intercept: 1, terms: [{ feature: completed_loans, weight: 0 }] } }\npricing: { target_return: 0.05 }\n`;
  return compileStrategy(parseStrategyText(text, 's.yaml'), { file: 's.yaml', text }).listRestriction;
}

describe("a strategy's restriction", () => {
  it('reads risk_level and borrower_risk_level filters (in, not_in, min, max)', () => {
    expect(restrictionOf('  - { feature: risk_level, in: [0, 1, 2] }')).toEqual({ riskLevels: [0, 1, 2] });
    expect(restrictionOf('  - { feature: borrower_risk_level, not_in: [3] }\n  - { feature: risk_level, max: 2 }')).toEqual({
      riskLevels: [0, 1, 2],
    });
    expect(restrictionOf('  - { feature: risk_level, min: $lowest }', 'params: { lowest: { value: 3, min: 0, max: 4 } }')).toEqual({
      riskLevels: [3, 4],
    });
  });

  it('drops level 4 when crypto-backed requests are refused', () => {
    expect(restrictionOf('  - { feature: crypto_backed, in: [false] }')).toEqual({ riskLevels: [0, 1, 2, 3] });
    expect(restrictionOf('  - { feature: crypto_backed, not_in: [true] }')).toEqual({ riskLevels: [0, 1, 2, 3] });
    // Taking only crypto-backed requests says nothing of the level: crypto fields can come on any.
    expect(restrictionOf('  - { feature: crypto_backed, in: [true] }')).toEqual({});
  });

  it('reads the loan_amount bounds, params resolved, the narrowest of several filters', () => {
    expect(
      restrictionOf(
        '  - { feature: loan_amount, min: 100, max: $top }\n  - { feature: loan_amount, max: 800 }',
        'params: { top: { value: 900, min: 500, max: 2000 } }',
      ),
    ).toEqual({
      loanAmount: { min: 100, max: 800 },
    });
  });

  it('says nothing of filters the list cannot express', () => {
    expect(restrictionOf('  - { feature: credit_score_low, min: 600 }\n  - { feature: loan_terms, max: 12 }')).toEqual({});
  });
});

describe('the union over strategies', () => {
  it('sends svc_color only when every strategy restricts the level and together they allow one', () => {
    expect(unionListFilters([{ riskLevels: [1] }, { riskLevels: [1] }])).toEqual({ svcColor: 1 });
    expect(unionListFilters([{ riskLevels: [1] }, { riskLevels: [2] }])).toEqual({});
    expect(unionListFilters([{ riskLevels: [1] }, {}])).toEqual({});
    // A plugin: its rules are unknown.
    expect(unionListFilters([{ riskLevels: [1] }, undefined])).toEqual({});
  });

  it('spans the amounts from the lowest minimum to the highest maximum, in whole dollars and a dollar more', () => {
    expect(unionListFilters([{ loanAmount: { min: 200.5, max: 900 } }, { loanAmount: { min: 100, max: 1500.25 } }])).toEqual({
      loanAmount: { min: 99, max: 1502 },
    });
    expect(unionListFilters([{ loanAmount: { min: 200.5, max: 900 } }])).toEqual({ loanAmount: { min: 199, max: 901 } });
    // One strategy without a maximum: no maximum; one without a minimum: no minimum.
    expect(unionListFilters([{ loanAmount: { min: 200 } }, { loanAmount: { min: 100, max: 900 } }])).toEqual({ loanAmount: { min: 99 } });
    expect(unionListFilters([{ loanAmount: { min: 200, max: 500 } }, {}])).toEqual({});
    expect(unionListFilters([{ loanAmount: { min: 0.5, max: 500 } }])).toEqual({ loanAmount: { max: 501 } });
  });

  it('sends nothing without strategies', () => {
    expect(unionListFilters([])).toEqual({});
  });

  it('encodes as the list query of spec 4.1', () => {
    const filters = unionListFilters([{ riskLevels: [2], loanAmount: { min: 100, max: 1500 } }]);
    expect(encodeLoanRequestFilters(filters, 'min-max-params')).toEqual([
      ['svc_color', '2'],
      ['loan_amount_min', '99'],
      ['loan_amount_max', '1501'],
    ]);
  });
});
