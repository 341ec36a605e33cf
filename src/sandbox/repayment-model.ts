/**
 * The hidden repayment model. A borrower's chance of repaying in full is a logistic function of
 * the features a lender can observe (credit data, agg_90 cash flow, payment against income,
 * income volatility) plus hidden noise, weighted by the market shape (shapes/): a good strategy
 * can learn most of it, no strategy can learn all of it, and an oracle reading the ground truth
 * beats both. How each loan then plays out (late payments, the month of the first missed
 * payment, what collection recovers) is drawn once, up front, so the outcome does not depend on
 * who funds the loan or when the simulation looks at it.
 */
import type { Agg90 } from '../domain/index.js';
import { logistic } from '../math/index.js';
import type { HiddenTruth } from './market-types.js';
import { clamp, type Random } from './random.js';
import type { RepaymentWeights } from './shapes/market-shape.js';

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

/** The annual rate the payment burden is measured at (the burden feature must not depend on who prices the loan). */
export const REFERENCE_RATE = 0.3;

/** The logit of full repayment that the observable features alone support. */
export function observableLogit(f: ObservableFeatures, w: RepaymentWeights): number {
  let logit = w.intercept;
  logit += w.creditScore * (f.creditScore - 650);
  // Only shifted worlds set it: the shapes' own logits stay exactly what they were.
  if (w.creditScoreAbove700 !== undefined) logit += w.creditScoreAbove700 * Math.max(0, f.creditScore - 700);
  logit += w.creditUtilization * (f.creditUtilization - 0.4);
  logit += w.hardInquiries * f.hardInquiries;
  logit += w.derogatoryMarks * f.derogatoryMarks;
  logit += w.completedLoans * Math.min(f.completedLoans, 5);
  logit += w.paymentToIncome * (f.referencePaymentCents / Math.max(f.monthlyIncomeCents, 1) - 0.08);
  const agg = f.agg90;
  if (!agg) return logit + w.noBankData;
  const credit = aggNumber(agg, 'avg_credit');
  const debit = aggNumber(agg, 'avg_debit');
  const cashFlow = credit > 0 ? (credit - debit) / credit : -0.5;
  logit += w.cashFlow * clamp(cashFlow, -0.5, 0.5);
  logit += w.negativeBalances * Math.min(agg.negative_balance_count ?? 0, 10);
  logit += w.bankFeesShare * aggNumber(agg, 'bank_fees_spending_percentage_from_total');
  logit += w.cashAdvanceShare * aggNumber(agg, 'cash_advance_percentage_from_total');
  if (w.incomeVolatility !== 0) logit += w.incomeVolatility * (Math.min(incomeVolatility(agg), 1) - 0.2);
  return logit;
}

/** A numeric agg_90 field, 0 when absent. */
export function aggNumber(agg: Agg90, field: string): number {
  const value = agg[field];
  return typeof value === 'number' ? value : 0;
}

/** Standard deviation / mean of the three monthly incomes, as the `bank_income_volatility` feature computes it. */
export function incomeVolatility(agg: Agg90): number {
  const months = [aggNumber(agg, 'credit_30'), aggNumber(agg, 'credit_60'), aggNumber(agg, 'credit_90')];
  const mean = months.reduce((sum, value) => sum + value, 0) / 3;
  if (mean <= 0) return 1;
  const variance = months.reduce((sum, value) => sum + (value - mean) ** 2, 0) / 3;
  return Math.sqrt(variance) / mean;
}

/** Draws the hidden truth of a request from its features and its own random stream. */
export function drawHiddenTruth(features: ObservableFeatures, terms: number, weights: RepaymentWeights, random: Random): HiddenTruth {
  const base = observableLogit(features, weights);
  const noise = random.normal(0, weights.noiseSd);
  const repayProbability = clamp(logistic(base + noise), 0.01, 0.995);
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
