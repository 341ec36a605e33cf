/**
 * The request's maximum rate as an upper anchor on the learned default level
 * (`pricing.level_uncertainty.max_rate_anchor`; docs/market-model.md, "The maximum rate as an
 * anchor"). A market where this request can be funded at its maximum rate r_max is one whose
 * lenders expect at least to break even there, so a level under which the request's default
 * probability is above the break-even default at r_max (for this lender's own hurdle, recovery,
 * servicing and term, as the price computes them) is implausible for it. Before the lender's own
 * loans say much, the level's posterior N(m, s²) in log-odds of default is truncated at that
 * bound b = logit(p_be): the default priced with is E[σ(η) | η ≤ b] and the floor's quantile is
 * taken over the truncated belief (level-uncertainty.ts). With evidence the posterior narrows and
 * the truncation stops mattering unless the learned level itself sits above the bound.
 */
import { hurdleCents, logistic, logit, paymentFactor, type LoanEconomics } from '../../math/index.js';
import { normalCdf } from '../market-response.js';
import { meanDefaultLogOdds } from './calibration-learner.js';

/** What the anchor did to one request's level: the bound, the share of the belief kept under it, the default priced. */
export interface MaxRateAnchor {
  /** The break-even default probability at the request's maximum rate. */
  bound: number;
  /** P(η ≤ logit(bound)) under the untruncated posterior: 1 when the bound cuts nothing. */
  kept: number;
  /** The posterior's mean default over the levels kept, E[σ(η) | η ≤ b]. */
  meanDefault: number;
}

/**
 * The default probability at which a loan at `rate` just reaches `targetReturn` (the hurdle):
 * collected share (P + (1 − P)·recovery)·(1 − servicing) equal to hurdle / total due. Undefined
 * when no default level breaks even there (even full repayment misses the hurdle) or every one does.
 */
export function breakEvenDefault(rate: number, targetReturn: number, economics: LoanEconomics): number | undefined {
  const { repaidPrincipalCents, terms, recovery, servicingCost } = economics;
  const due = repaidPrincipalCents * paymentFactor(rate, terms) * terms;
  if (!(due > 0) || !(servicingCost < 1) || !(recovery < 1)) return undefined;
  const needed = hurdleCents(targetReturn, economics) / (due * (1 - servicingCost));
  // The inverse of collectedShare (loan-math.ts) at the hurdle.
  const repay = (needed - recovery) / (1 - recovery);
  return repay > 0 && repay < 1 ? 1 - repay : undefined;
}

/** Simpson's rule over at most 8 sd either side of the mean: σ·φ is smooth there. */
const STEPS = 256;
const SDS = 8;

/** E[σ(η)·1(η ≤ b)] for η ~ N(mean, sd²). */
function massBelow(mean: number, sd: number, b: number): number {
  const from = mean - SDS * sd;
  const to = Math.min(b, mean + SDS * sd);
  if (!(to > from)) return 0;
  const h = (to - from) / STEPS;
  const density = (eta: number): number => {
    const z = (eta - mean) / sd;
    return (logistic(eta) * Math.exp(-0.5 * z * z)) / (sd * Math.sqrt(2 * Math.PI));
  };
  let sum = density(from) + density(to);
  for (let i = 1; i < STEPS; i += 1) sum += (i % 2 === 1 ? 4 : 2) * density(from + i * h);
  return (sum * h) / 3;
}

/**
 * The level N(mean, sd²) (log-odds of default at this request) truncated at logit(bound). The
 * score prices with MacKay's approximation of the whole mean (meanDefaultLogOdds); the anchored
 * mean is that figure times the exact truncated mean over the exact whole one, so it is the
 * score's own where the bound cuts nothing, and never above the bound.
 */
export function anchoredLevel(mean: number, sd: number, bound: number): MaxRateAnchor {
  const b = logit(bound);
  const whole = logistic(meanDefaultLogOdds(mean, sd * sd));
  if (!(sd > 0)) return { bound, kept: mean <= b ? 1 : 0, meanDefault: Math.min(whole, bound) };
  const kept = normalCdf((b - mean) / sd);
  // Below one part in a million of the belief is left: the level sits at the bound.
  if (kept < 1e-6) return { bound, kept, meanDefault: bound };
  const exactWhole = massBelow(mean, sd, Number.POSITIVE_INFINITY);
  const truncated = massBelow(mean, sd, b) / kept;
  return { bound, kept, meanDefault: Math.min(bound, (whole * truncated) / exactWhole) };
}
