/** Strategies written inline for backtest tests, compiled by the real engine. */
import { compileStrategy, parseStrategyText, type CompiledStrategy } from '../../src/engine/index.js';

/**
 * Offers 0.12 on every request whose credit score range starts at or above `min_credit_score`
 * (a constant logistic score of probability ~0.95 and a fixed price: ceiling 0.12).
 */
export const FLAT_STRATEGY_YAML = `# a flat-price test strategy
name: flat
description: fixed price above a credit score floor
version: "1"
automate_fund: false
params:
  # the only knob: lowest credit score range start accepted
  min_credit_score: { value: 560, min: 540, max: 760, step: 10 }
filters:
  - feature: credit_score_low
    min: $min_credit_score   # tuned
score:
  logistic:
    intercept: 3
    terms:
      - { feature: credit_score_mid, weight: 0, missing: 0 }
pricing:
  target_return: 0.0
  ceiling: 0.12
  margin: 0.5
`;

export function flatStrategy(text = FLAT_STRATEGY_YAML, file = 'flat.yaml'): CompiledStrategy {
  return compileStrategy(parseStrategyText(text, file), { file, text });
}
