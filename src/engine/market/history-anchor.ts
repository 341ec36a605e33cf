/**
 * The market's past prices as a cold-start anchor for the learned default level
 * (`score.calibration.history_anchor`; docs/market-model.md, "The market's own prices as a
 * cold-start anchor"). Before the lender has outcomes of its own, the rates other lenders charged
 * this borrower on its completed loans (marketplace 4.9) say what default the market expected:
 *
 *   each past rate r_j → the default d_j at which r_j just covers this lender's costs on this
 *   loan (its hurdle, servicing cost and recovery, this request's amount and term: the break-even
 *   of expected-profit pricing read backwards), z_j = logit(d_j);
 *   the anchor: z̄, the mean of the z_j, a measurement of this request's log-odds of default with
 *   variance sd² + s²/k: `sd` the market's own doubt (its margins, its costs, its view of terms,
 *   none of them ours; it does not shrink with more loans), s² the spread of this borrower's past
 *   prices (pooled with a prior spread of PRIOR_ITEM_SD over PRIOR_ITEM_WEIGHT loans, so one loan
 *   is not read as exact), k the loans.
 *
 * It is blended with the learned level's belief at this request, N(m, v), as a normal measurement:
 * weight w = v / (v + anchor variance), mean m + w (z̄ − m), variance v (1 − w). So histories
 * whose prices scatter (the sandbox's uniform draw) weigh little; as the lender's own loans narrow v,
 * the weight falls and the learned level takes over. The blended variance is never below what the
 * two pieces of evidence give together, and never below the anchor's own `sd`-floored variance share.
 * The weight is further scaled by how far past prices were seen to track the score across the
 * borrowers read so far (anchor-relation.ts): where they carry nothing the anchor weighs nothing.
 */
import type { BorrowerLoanHistoryItem } from '../../domain/index.js';
import { breakEvenRepayProbability, logit, type LoanEconomics } from '../../math/index.js';

/** A strategy's `history_anchor`, compiled. */
export interface HistoryAnchorSettings {
  /** The market's doubt, in log-odds: how far its break-even reading may sit from this lender's. */
  sd: number;
}

/** The lender's costs an implied default is read after (the pricing's). */
export type AnchorEconomics = Omit<LoanEconomics, 'probability'> & { targetReturn: number };

/** What this borrower's history says of its default. */
export interface HistoryAnchor {
  /** Past loans read. */
  loans: number;
  /** Mean implied default's log-odds (z̄). */
  mean: number;
  /** The measurement's variance: sd² + s²/k. */
  variance: number;
}

/** The belief after the anchor, and how much the anchor moved it. */
export interface AnchoredLevel {
  mean: number;
  variance: number;
  /** The anchor's weight, 0 to 1. */
  weight: number;
}

/** An implied default is kept within these (a rate below our costs says "safe", not "never defaults"). */
const LOWEST_IMPLIED = 0.005;
const HIGHEST_IMPLIED = 0.95;
/** A single past price is read as if its spread were this (log-odds), worth this many loans. */
const PRIOR_ITEM_SD = 1;
const PRIOR_ITEM_WEIGHT = 2;

/**
 * The default probability at which `rate` just covers the lender's costs and hurdle on the loan of
 * `economics` (breakEvenRepayProbability), kept within LOWEST_IMPLIED and HIGHEST_IMPLIED.
 */
export function impliedDefault(rate: number, economics: AnchorEconomics): number {
  const implied = 1 - breakEvenRepayProbability(rate, economics.targetReturn, economics);
  return Math.min(HIGHEST_IMPLIED, Math.max(LOWEST_IMPLIED, Number.isFinite(implied) ? implied : HIGHEST_IMPLIED));
}

/** The anchor from the borrower's completed loans, or undefined without any priced loan. */
export function historyAnchorOf(
  history: readonly BorrowerLoanHistoryItem[] | undefined,
  economics: AnchorEconomics,
  settings: HistoryAnchorSettings,
): HistoryAnchor | undefined {
  if (history === undefined) return undefined;
  const z: number[] = [];
  for (const item of history) {
    const rate = Number(item.interest_rate);
    if (Number.isFinite(rate) && rate > 0) z.push(logit(impliedDefault(rate, economics)));
  }
  const k = z.length;
  if (k === 0) return undefined;
  const mean = z.reduce((sum, value) => sum + value, 0) / k;
  const squares = z.reduce((sum, value) => sum + (value - mean) ** 2, 0);
  const spread = (PRIOR_ITEM_WEIGHT * PRIOR_ITEM_SD ** 2 + squares) / (PRIOR_ITEM_WEIGHT + k - 1);
  return { loans: k, mean, variance: settings.sd ** 2 + spread / k };
}

/**
 * The learned level's belief N(mean, variance) at a request, with the anchor's measurement blended
 * in; `trust` (anchor-relation.ts, 0 to 1) how far past prices were seen to track risk across
 * borrowers: the anchor's variance is divided by its square, so at 0 the level is left as it is.
 */
export function anchoredLevel(level: { mean: number; variance: number }, anchor: HistoryAnchor, trust = 1): AnchoredLevel {
  if (!(trust > 0)) return { mean: level.mean, variance: level.variance, weight: 0 };
  const weight = level.variance / (level.variance + anchor.variance / trust ** 2);
  return { mean: level.mean + weight * (anchor.mean - level.mean), variance: level.variance * (1 - weight), weight };
}
