/** Evaluation order with `data.borrower_history` (docs/strategies.md, "Evaluation order"). */
import { describe, expect, it } from 'vitest';
import { columnsUnsupported } from '../../src/backtest/tune/trial-columns.js';
import { evaluate } from '../../src/engine/index.js';
import { compileText, MINIMAL_SCORE } from './compile-text.js';
import { bankingData, historyItem, loanRequest } from './fixtures.js';
import { storedReasons } from '../../src/store/reason-texts-to-values.js';

const FILTERS = `
filters:
  - { feature: loan_terms, max: 12 }
  - { feature: history_loans, min: 1 }
`;

describe('borrower history as a data source', () => {
  it('is never asked for by default: the history filter sees it missing', () => {
    const strategy = compileText(FILTERS + 'data: { banking_data: never }\n' + MINIMAL_SCORE);
    expect(strategy.dataPolicy.borrowerHistory).toBe('never');
    expect(evaluate(loanRequest(), {}, strategy)).toMatchObject({
      action: 'skip',
      reasons: storedReasons(['filter history_loans missing']),
    });
  });

  it('after_filters: asked for once the free filters pass, then its filters, then banking data', () => {
    const strategy = compileText(FILTERS + 'data: { borrower_history: after_filters }\n' + MINIMAL_SCORE);
    expect(evaluate(loanRequest({ loan_terms: 24 }), {}, strategy)).toMatchObject({
      action: 'skip',
      reasons: storedReasons(['filter loan_terms > 12']),
    });
    expect(evaluate(loanRequest(), {}, strategy)).toMatchObject({ action: 'needs_data', needs: [{ kind: 'borrower_history' }] });
    expect(evaluate(loanRequest(), { borrowerHistory: [] }, strategy)).toMatchObject({
      action: 'skip',
      reasons: storedReasons(['filter history_loans < 1']),
    });
    // Banking data (after_filters by default) waits for the history filters.
    expect(evaluate(loanRequest(), { borrowerHistory: [historyItem()] }, strategy)).toMatchObject({
      action: 'needs_data',
      needs: [{ kind: 'banking_data' }],
    });
    expect(evaluate(loanRequest(), { borrowerHistory: [historyItem()], bankingData: bankingData() }, strategy).action).toBe('offer');
    // Known unavailable (a 404): decided without it, by the filter's missing rule.
    expect(evaluate(loanRequest(), { unavailable: { borrowerHistory: true } }, strategy)).toMatchObject({
      action: 'skip',
      reasons: storedReasons(['filter history_loans missing']),
    });
  });

  it('after_filters without a filter on the history: asked for in the same pass as banking data', () => {
    // Nothing the history says can skip the request before the banking data, so one round asks for both.
    const strategy = compileText(
      'filters:\n  - { feature: loan_terms, max: 12 }\ndata: { borrower_history: after_filters }\n' + MINIMAL_SCORE,
    );
    expect(evaluate(loanRequest(), {}, strategy)).toMatchObject({
      action: 'needs_data',
      needs: [{ kind: 'borrower_history' }, { kind: 'banking_data' }],
    });
    expect(evaluate(loanRequest(), { borrowerHistory: [historyItem()], bankingData: bankingData() }, strategy).action).toBe('offer');
    // Banking data never bought: the history alone.
    const historyOnly = compileText('data: { borrower_history: after_filters, banking_data: never }\n' + MINIMAL_SCORE);
    expect(evaluate(loanRequest(), {}, historyOnly)).toMatchObject({ action: 'needs_data', needs: [{ kind: 'borrower_history' }] });
  });

  it('always: asked for before any filter, in the same pass as banking data when that is always too', () => {
    const strategy = compileText(FILTERS + 'data: { borrower_history: always, banking_data: always }\n' + MINIMAL_SCORE);
    expect(evaluate(loanRequest({ loan_terms: 24 }), {}, strategy)).toMatchObject({
      action: 'needs_data',
      needs: [{ kind: 'banking_data' }, { kind: 'borrower_history' }],
      reasons: storedReasons(['data banking_data needed (policy always)', 'data borrower_history needed (policy always)']),
    });
  });

  it("sends a strategy that fetches history to tuning's full backtests, not the column path", () => {
    expect(columnsUnsupported(compileText(FILTERS + 'data: { borrower_history: after_filters }\n' + MINIMAL_SCORE))).toBe(
      'it fetches borrower history',
    );
    expect(columnsUnsupported(compileText(FILTERS + MINIMAL_SCORE))).toBeUndefined();
  });
});
