/**
 * Pricing with what the daemon learned, without touching it: `strategy explain --db` and shadow
 * strategies price with a copy of the learners (pricing may make a learner, and an offer counts
 * against its exploration budget), so a strategy that learns prices as the live daemon would, and
 * the live learners change only by the live offers' fates.
 */
import type { Decision } from '../decision.js';
import { MarketLearning } from './market-learning.js';

/** Every learner of `learning`, state and settings copied. */
export function copyLearning(learning: MarketLearning): MarketLearning {
  return new MarketLearning(
    learning.entries().map(([name, learner]) => [name, { state: learner.snapshotState, settings: learner.settings }] as const),
  );
}

/**
 * Which market response priced `decision`: the learned one (its version and the fates it rests
 * on) or the strategy's configured one; undefined when nothing was priced against a market.
 */
export function marketUsedText(decision: Decision): string | undefined {
  const learned = decision.marketResponse;
  if (learned !== undefined) return `market learned v${learned.version} (${learned.evidence} fates)`;
  return decision.priceCurve !== undefined ? 'configured market' : undefined;
}
