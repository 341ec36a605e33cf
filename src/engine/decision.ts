/** What a strategy decides about one loan request, with everything needed to explain it. */
import type { DecisionReason } from '../domain/decision-reason.js';
import type { DataNeed } from './enrichment.js';
import type { FeatureValue } from './features/feature-definition.js';
import type { PriceCurve } from './pricing/expected-profit.js';

/** One line of the score: a term's input, its points and what it adds to the log-odds. */
export interface Contribution {
  /**
   * The feature, or `scorecard.base` / `logistic.intercept` for the constant lines, or
   * `calibration.platt` / `calibration.isotonic` / `calibration.learned` / `calibration.history_anchor`
   * for the calibration (the last lines; each one's value is the probability before it).
   */
  feature: string;
  value: FeatureValue;
  /** Scorecard points, or for a logistic term (and the calibration) its log-odds contribution. */
  points: number;
  /** What the line adds to the log-odds of repayment; all lines sum to the total. */
  logOdds: number;
  model: 'scorecard' | 'logistic' | 'calibration';
  /** True when the feature was absent and the term's `missing` value was used. */
  missing?: boolean;
}

/** Identity of the strategy that decided, recorded with every decision. */
export interface StrategyIdentity {
  name: string;
  version: string;
  contentHash: string;
}

/**
 * An offer as the strategy's own models see it: the chance it is accepted, under the market
 * response it prices with (pricing.market over the fitted one over the defaults), and what it
 * earns either way once accepted. Modelled, never observed: a dry run's paper book sums these
 * (docs/daemon.md, "Paper book").
 */
export interface ModelledOutcome {
  /** P(accept) at the offered rate before anyone knows who else offers (market-response.ts). */
  acceptProbability: number;
  /** Collected minus funded, in (unrounded) cents, if accepted and repaid in full (after servicing costs). */
  repaidProfitCents: number;
  /** Collected minus funded, in (unrounded) cents, if accepted and the borrower defaults (the recovery only). */
  defaultProfitCents: number;
}

/** Which calibration priced a decision: the learner's version and what it rested on, and the loan's score before it. */
export interface CalibrationUsed {
  version: number;
  loans: number;
  defaults: number;
  loanMonths: number;
  /** The score's default probability before the learned calibration (what the loan teaches with, if funded). */
  scoreDefault: number;
  /** With `history_anchor` and a history read: its implied log-odds of default (what the request teaches anchor-relation.ts). */
  historyLogOdds?: number;
}

export interface Decision {
  action: 'offer' | 'skip' | 'needs_data';
  /** Offered annual rate, API unit, within [0.03, max_interest_rate]; only on offers. */
  rate?: number;
  /** Estimated probability of full repayment. */
  probability?: number;
  /** Expected annual return at the offered rate. */
  expectedReturn?: number;
  /** The rate that exactly reaches the target return (before margin and caps); in expected_profit mode, the break-even. */
  requiredRate?: number;
  /** expected_profit pricing only: the inputs of the curve the rate was chosen on, so it can be redrawn. */
  priceCurve?: PriceCurve;
  /**
   * Which learned market response priced it (`pricing.learning`): its version (one per fate
   * learned), the fates it rests on, and whether the rate explored. Absent: the configured one.
   */
  marketResponse?: { version: number; evidence: number; explored: boolean };
  /**
   * Which learned calibration (`score.calibration: { method: learned }`) gave the probability: its
   * version (one per refit), the loans, defaults and loan-months it rests on, and the score's
   * default probability before it (what the loan teaches the learner if funded). Absent: none.
   */
  calibration?: CalibrationUsed;
  /** Offers with a probability only: what the models say would become of the offer (a dry run's paper book). */
  modelled?: ModelledOutcome;
  automateFund: boolean;
  /** What to buy before deciding; only on needs_data. */
  needs?: DataNeed[];
  /** Why, as values (a code and its figures); rendered to text (reasonText) only where they leave as text. */
  reasons: DecisionReason[];
  contributions: Contribution[];
  /** The features the strategy uses, as computed for this request (null = absent). */
  features: Record<string, FeatureValue>;
  strategy: StrategyIdentity;
  params: Record<string, number>;
}

/** Formats a rate or probability for a reason: at least two decimals, at most four. */
export function formatRatio(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const fixed = value.toFixed(4);
  // Up to two trailing zeros dropped; by hand, not a regex: a replay formats several per request.
  let end = fixed.length;
  if (fixed.charCodeAt(end - 1) === 48) end -= 1;
  if (end < fixed.length && fixed.charCodeAt(end - 1) === 48) end -= 1;
  return end === fixed.length ? fixed : fixed.slice(0, end);
}
