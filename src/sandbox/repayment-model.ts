/**
 * The hidden repayment model. A borrower's chance of repaying in full is a logistic function of
 * the features a lender can observe (credit data, agg_90 cash flow, payment against income) plus
 * hidden noise: a good strategy can learn most of it, no strategy can learn all of it, and an
 * oracle reading the ground truth beats both. How each loan then plays out (late payments, the
 * month of the first missed payment, what collection recovers) is drawn once, up front, so the
 * outcome does not depend on who funds the loan or when the simulation looks at it.
 */
import type { Agg90 } from '../service/index.js';
import type { HiddenTruth } from './market-types.js';
import { clamp, type Random } from './random.js';

export interface ObservableFeatures {
  creditScore: number;
  creditUtilization: number;
  hardInquiries: number;
  derogatoryMarks: number;
  completedLoans: number;
  /** Monthly income in cents, from the annual income. */
  monthlyIncomeCents: number;
  /** Monthly payment at a reference rate, in cents. */
  referencePaymentCents: number;
  agg90: Agg90 | null;
}

/** Standard deviation of the hidden noise added to the observable logit. */
export const HIDDEN_NOISE_SD = 0.7;

/** The logit of full repayment that the observable features alone support. */
export function observableLogit(f: ObservableFeatures): number {
  let logit = 1.9;
  logit += 0.011 * (f.creditScore - 650);
  logit -= 1.4 * (f.creditUtilization - 0.4);
  logit -= 0.15 * f.hardInquiries;
  logit -= 0.35 * f.derogatoryMarks;
  logit += 0.22 * Math.min(f.completedLoans, 5);
  logit -= 4 * (f.referencePaymentCents / Math.max(f.monthlyIncomeCents, 1) - 0.08);
  const agg = f.agg90;
  if (!agg) return logit - 0.25;
  const credit = aggNumber(agg, 'avg_credit');
  const debit = aggNumber(agg, 'avg_debit');
  const cashFlow = credit > 0 ? (credit - debit) / credit : -0.5;
  logit += 2.2 * clamp(cashFlow, -0.5, 0.5);
  logit -= 0.2 * Math.min(agg.negative_balance_count ?? 0, 10);
  logit -= 0.06 * aggNumber(agg, 'bank_fees_spending_percentage_from_total');
  logit -= 0.05 * aggNumber(agg, 'cash_advance_percentage_from_total');
  return logit;
}

/** A numeric agg_90 field, 0 when absent. */
export function aggNumber(agg: Agg90, field: string): number {
  const value = agg[field];
  return typeof value === 'number' ? value : 0;
}

function sigmoid(x: number): number {
  return 1 / (1 + Math.exp(-x));
}

/** Draws the hidden truth of a request from its features and its own random stream. */
export function drawHiddenTruth(features: ObservableFeatures, terms: number, random: Random): HiddenTruth {
  const base = observableLogit(features);
  const noise = random.normal(0, HIDDEN_NOISE_SD);
  const repayProbability = clamp(sigmoid(base + noise), 0.01, 0.995);
  const defaults = random.next() > repayProbability;
  // Defaults cluster early in a loan's life.
  const missedMonth = defaults ? 1 + Math.floor(terms * random.next() ** 1.5) : null;
  const lateChance = 0.04 + 0.3 * (1 - repayProbability);
  const lateDays = Array.from({ length: terms }, () => (random.chance(lateChance) ? random.int(1, 25) : 0));
  return {
    repayProbability,
    observableLogit: base,
    noise,
    missedMonth,
    recoveryShare: random.between(0.05, 0.55),
    lateDays,
  };
}
