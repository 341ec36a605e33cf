/**
 * The naive baseline shipped in strategies/examples/naive.yaml: pricing mode max_rate without a
 * score offers the cap on every request of risk level 0-2 and estimates nothing.
 */
import { describe, expect, it } from 'vitest';
import { loadStrategyFile, parseStrategyText } from '../../src/engine/index.js';
import { loanRequest } from './fixtures.js';
import { reasonText } from '../../src/domain/decision-reason.js';

describe('a strategy without a score (pricing mode max_rate)', () => {
  it('offers the maximum rate on risk levels 0-2 and skips the rest (strategies/examples/naive.yaml)', async () => {
    const naive = await loadStrategyFile('strategies/examples/naive.yaml');
    const offer = naive.evaluate(loanRequest({ borrower_card_color: 2, max_interest_rate: 0.99 }), {});
    expect(offer.action).toBe('offer');
    expect(offer.rate).toBe(0.99);
    expect(offer.probability).toBeUndefined();
    expect(offer.reasons.map(reasonText)).toEqual(['price max_rate offered 0.99 (max_interest_rate)']);
    const skip = naive.evaluate(loanRequest({ borrower_card_color: 3, max_interest_rate: 0.36 }), {});
    expect(skip.action).toBe('skip');
    expect(skip.reasons.map(reasonText)).toEqual(['filter risk_level not in [0, 1, 2]']);
  });

  it('is refused for the other pricing modes, which need a probability', () => {
    const text = ['name: x', 'description: x', 'version: "1"', 'pricing:', '  mode: cost_plus', '  target_return: 0.08'].join('\n');
    expect(() => parseStrategyText(text, 'x.yaml')).toThrow(/missing "score" \(or name a "plugin" module, or price with mode max_rate\)/);
  });
});
