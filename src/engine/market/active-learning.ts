/**
 * The learners pricing reads while the decide step evaluates strategies. Pricing is compiled
 * into closures called deep inside a strategy's evaluation; rather than thread the learners
 * through every strategy kind (plugins included), the decide step sets them for the duration of
 * one synchronous evaluation and clears them after. Outside it (tuning, `strategy explain`
 * without a daemon) nothing is active and a learning strategy prices with its prior.
 */
import type { MarketLearning } from './market-learning.js';

let active: MarketLearning | undefined;

/** Runs `evaluate` with `learning` active (synchronous only: nothing else runs in between). */
export function withLearning<T>(learning: MarketLearning | undefined, evaluate: () => T): T {
  const before = active;
  active = learning;
  try {
    return evaluate();
  } finally {
    active = before;
  }
}

/** The learners of the evaluation in progress, if any. */
export function activeLearning(): MarketLearning | undefined {
  return active;
}
