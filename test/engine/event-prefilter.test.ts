import { describe, expect, it } from 'vitest';
import { eventDropReason, parseStrategyText, compileStrategy } from '../../src/engine/index.js';
import { reasonText, type DecisionReason } from '../../src/domain/decision-reason.js';

/** A reason's stored text, or what stands for none. */
const textOf = (reason: DecisionReason | null | undefined) => (reason === null || reason === undefined ? reason : reasonText(reason));

const text = `
name: small-cash
description: Small cash loans only (test).
version: "1"
params:
  max_amount: { value: 1500, min: 500, max: 5000 }
filters:
  - feature: loan_amount
    min: 200
    max: $max_amount
  - feature: crypto_backed
    in: [false]
  - feature: credit_score_low
    min: 600
score:
  logistic:
    intercept: 3
    terms:
      - feature: completed_loans
        weight: 0.1
        missing: 0
pricing:
  target_return: 0.05
`;

const strategy = compileStrategy(parseStrategyText(text, 'small-cash.yaml'), { file: 'small-cash.yaml', text });

describe('the webhook prefilter of a strategy', () => {
  it('refuses what the event already shows the filters refuse', () => {
    expect(textOf(strategy.prefilterEvent?.({ loanAmount: 2500, cryptoBacked: false }))).toBe('filter loan_amount > 1500');
    expect(textOf(strategy.prefilterEvent?.({ loanAmount: 100, cryptoBacked: false }))).toBe('filter loan_amount < 200');
    expect(textOf(strategy.prefilterEvent?.({ loanAmount: 800, cryptoBacked: true }))).toBe('filter crypto_backed not in [false]');
  });

  it('lets through what may pass, and never drops on a fact the event lacks', () => {
    expect(strategy.prefilterEvent?.({ loanAmount: 800, cryptoBacked: false })).toBeNull();
    expect(strategy.prefilterEvent?.({})).toBeNull();
    expect(strategy.prefilterEvent?.({ cryptoBacked: false })).toBeNull();
  });

  it('follows param overrides (tuning, hot reload)', () => {
    expect(strategy.withParams({ max_amount: 3000 }).prefilterEvent?.({ loanAmount: 2500, cryptoBacked: false })).toBeNull();
  });
});

describe('eventDropReason (the inbox drops an event before fetching its request)', () => {
  const cash = { loan_request_id: 1, loan_request_amount: 900, loan_request_type: 'cash' };
  it('drops crypto-backed requests unless risk level 4 is allowed', () => {
    expect(textOf(eventDropReason({ ...cash, loan_request_type: 'crypto' }, [0, 1, 2], [strategy]))).toBe(
      'crypto-backed requests are not allowed by risk.allowed_risk_levels',
    );
    expect(eventDropReason({ ...cash, loan_request_type: 'crypto' }, [0, 1, 2, 4], [{ name: 'any' }])).toBeNull();
  });

  it('drops what every strategy refuses, naming each; one strategy that may take it keeps it', () => {
    expect(textOf(eventDropReason({ ...cash, loan_request_amount: 9000 }, [0, 1, 2], [strategy, strategy]))).toMatch(
      /^small-cash: .*; small-cash: /,
    );
    expect(eventDropReason({ ...cash, loan_request_amount: 9000 }, [0, 1, 2], [strategy, { name: 'plugin' }])).toBeNull();
    expect(eventDropReason({ loan_request_id: 1 }, [0, 1, 2], [strategy])).toBeNull();
  });
});
