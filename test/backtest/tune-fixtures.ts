/**
 * Recordings and a strategy for tuning under a cash constraint: requests half a day apart over
 * years, short (3-month) loans so cash comes back and is lent again all through the held-out
 * period, and a starting balance that funds only a few loans at a time, so a strategy that lends
 * to everyone is short of cash most of the time and every bad loan it funds displaces a good one.
 */
import type { RecordingLine } from '../../src/recording/index.js';
import { compileStrategy, parseStrategyText, type CompiledStrategy } from '../../src/engine/index.js';
import { seededRandom } from '../../src/backtest/tune/seeded-random.js';
import { recordingLine } from './recording-fixtures.js';

/** Funds ten $500 loans at once: a small share of the stream (about 60 requests a month). */
export const CASH_BOUND_BALANCE_CENTS = 500_000;

const HOUR_MS = 3_600_000;

/**
 * `count` requests of $500 over 3 months, `spacingHours` apart from 2026-01-01; the borrowers'
 * credit score ranges start from 540 to 760 in steps of 20, uniformly. `repaid(low, random)` is
 * the share of the total due each repays (1 = completed, less = default). Nobody else offers.
 */
export function cashBoundRecording(count: number, seed: number, repaid: (creditLow: number, random: () => number) => number, spacingHours = 12): RecordingLine[] {
  const random = seededRandom(seed);
  const start = Date.parse('2026-01-01T00:00:00Z');
  const lines: RecordingLine[] = [];
  for (let i = 0; i < count; i += 1) {
    const low = 540 + 20 * Math.floor(random() * 12);
    const fraction = repaid(low, random);
    lines.push(
      recordingLine({
        id: 20_000 + i,
        seenAt: new Date(start + i * spacingHours * HOUR_MS).toISOString().replace('.000Z', 'Z'),
        request: {
          borrower: { id: 70_000 + i, credit_score: `${low}-${low + 50}` },
          loan_amount: '500.00',
          total_amount: '500.00',
          total_fees: '0.00',
          fee_legislative: '0.00',
          fee_svc: '0.00',
          loan_terms: 3,
          max_interest_rate: 0.3,
        },
        outcome: { status: fraction >= 1 ? 'completed' : 'default', best_competing_rate: null, repaid_fraction: fraction },
      }),
    );
  }
  return lines;
}

/**
 * Offers 0.15 on every request whose credit score range starts at or above `min_credit_score`;
 * its current value, 540, lends to everyone.
 */
export const OPEN_STRATEGY_YAML = `# a flat-price test strategy that lends to everyone
name: open
description: fixed price above a credit score floor that starts wide open
version: "1"
automate_fund: true
params:
  min_credit_score: { value: 540, min: 540, max: 760, step: 10 }
filters:
  - feature: credit_score_low
    min: $min_credit_score
score:
  logistic:
    intercept: 6
    terms:
      - { feature: credit_score_mid, weight: 0, missing: 0 }
pricing:
  target_return: 0.0
  ceiling: 0.15
  margin: 0.5
`;

export function openStrategy(): CompiledStrategy {
  return compileStrategy(parseStrategyText(OPEN_STRATEGY_YAML, 'open.yaml'), { file: 'open.yaml', text: OPEN_STRATEGY_YAML });
}
