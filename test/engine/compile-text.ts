/** Compiling strategy YAML written inline in a test. */
import { compileStrategy, parseStrategyText, type CompiledStrategy } from '../../src/engine/index.js';

/** A minimal valid strategy; tests append or replace sections. */
export const MINIMAL_SCORE = `
score:
  logistic:
    intercept: 3
    terms:
      - { feature: credit_score_mid, weight: 0, missing: 0 }
pricing:
  target_return: 0.08
`;

/** `name` for tests that need strategies named apart (budgets and spend are per strategy name). */
export function compileText(body: string, file = 'inline.yaml', name = 'inline'): CompiledStrategy {
  const text = `name: ${name}\ndescription: test strategy\nversion: "1"\n${body}`;
  return compileStrategy(parseStrategyText(text, file), { file, text });
}

/** A strategy whose score is a constant `logOdds` (no banking data), with the given `pricing:` body. */
export function strategyAt(logOdds: number, pricing: string): CompiledStrategy {
  return compileText(`data: { banking_data: never }
score:
  logistic: { intercept: ${logOdds}, terms: [{ feature: loan_terms, weight: 0 }] }
pricing:
${pricing}`);
}
