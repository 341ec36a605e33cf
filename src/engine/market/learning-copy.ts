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
    learning.calibration.entries().map(([name, learner]) => [name, { state: learner.snapshotState, settings: learner.settings }] as const),
  );
}

/** Which learned calibration gave `decision`'s probability, in words; undefined when none did. */
export function calibrationUsedText(decision: Pick<Decision, 'calibration'>): string | undefined {
  const used = decision.calibration;
  if (used === undefined) return undefined;
  return `calibration learned v${used.version} (${used.loans} loans, ${used.defaults} defaults, ${used.loanMonths} loan-months)`;
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
