/**
 * Recordings and a strategy for tuning under a cash constraint: requests half a day apart over
 * years, short (3-month) loans so cash comes back and is lent again all through the held-out
 * period, and a starting balance that funds only a few loans at a time, so a strategy that lends
 * to everyone is short of cash most of the time and every bad loan it funds displaces a good one.
 */
import type { RecordingLine } from '../../src/recording/index.js';
import { prepareRecording, type PreparedRecording } from '../../src/backtest/prepared-recording.js';
import type { TuneOptions } from '../../src/backtest/tune/tuner.js';
import { compileStrategy, parseStrategyText, type CompiledStrategy } from '../../src/engine/index.js';
import { syntheticRecording } from './recording-fixtures.js';

/** Funds ten $500 loans at once: a small share of the stream (about 60 requests a month). */
export const CASH_BOUND_BALANCE_CENTS = 500_000;

/**
 * `count` requests of $500 over 3 months, `spacingHours` apart from 2026-01-01 (the generator of
 * recording-fixtures.ts with short loans). `repaid(low, random)` is the share of the total due
 * each repays (1 = completed, less = default). Nobody else offers.
 */
export function cashBoundRecording(
  count: number,
  seed: number,
  repaid: (creditLow: number, random: () => number) => number,
  spacingHours = 12,
): RecordingLine[] {
  return syntheticRecording(count, seed, repaid, { spacingHours, loanTerms: 3, firstId: 20_000, firstBorrowerId: 70_000 });
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

/**
 * Planted: borrowers whose credit score range starts below 620 repay 30% of what is due, the rest
 * repay in full. The best floor is therefore above 600 and at most 620 (ranges start every 20 points).
 */
export function plantedRecording(): PreparedRecording {
  return prepareRecording(syntheticRecording(600, 11, (low) => (low < 620 ? 0.3 : 1)));
}

/** The options tune.test.ts and tune-halving.test.ts tune the planted recording with. */
export const PLANTED_OPTIONS: TuneOptions = {
  trials: 30,
  seed: 1,
  objective: { objective: 'net_return', maxDefault: 0.1 },
  split: { kind: 'split', trainShare: 0.7 },
  backtest: { startingBalanceCents: 40_000_000 },
  // These recordings are small for speed (under 100 loans funded held out): the search is what
  // is tested here; the sample-size rule has its own test.
  acceptSmallSample: true,
};
