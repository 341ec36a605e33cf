/**
 * Robust prices while the learned default level is uncertain (`pricing.level_uncertainty`;
 * docs/strategies.md, "level_uncertainty"). The learned calibration (market/calibration-learner.ts)
 * gives the predicted default's log-odds as a posterior N(m, s²) at each request; expected-profit
 * pricing at the posterior's mean default alone (E[σ], compile-calibration.ts) would price a cold
 * start as if losses could not run above it. Two ways to carry s into the price:
 *
 *   cost_plus_floor: the expected-profit rate at the mean default, never below the rate that breaks even
 *                    (cost-plus, no margin) at the pessimistic default σ(m + z_q · s);
 *   blend:           cost-plus at the mean default plus `margin`, moving to the expected-profit rate as the
 *                    strategy's own evidence grows: rate = cp + w · (ep − cp), w = n / (n + half),
 *                    n the loan-months its funded loans have been followed (paid or missed
 *                    instalments), `half` = evidence_half.
 *
 * Either way the decision carries a `price_level_uncertain` reason with the figures.
 */
import type { DecisionReason } from '../../domain/decision-reason.js';
import type { LevelEvidence } from '../compile/learned-calibration.js';
import { formatRatio } from '../decision.js';
import { resolveNumber } from '../definition/param-values.js';
import type { LevelUncertaintyDefinition } from '../definition/strategy-schema.js';
import { logistic, MIN_OFFER_RATE, requiredRate, roundRateUp, type LoanEconomics } from '../../math/index.js';
import { meanDefaultLogOdds } from '../market/calibration-learner.js';

export interface LevelUncertaintySettings {
  mode: 'cost_plus_floor' | 'blend';
  quantile: number;
  margin: number;
  evidenceHalf: number;
}

export function levelUncertaintyOf(
  definition: LevelUncertaintyDefinition | undefined,
  params: Record<string, number>,
): LevelUncertaintySettings | undefined {
  if (definition === undefined) return undefined;
  return {
    mode: definition.mode,
    quantile: resolveNumber(definition.quantile, params),
    margin: resolveNumber(definition.margin, params),
    evidenceHalf: resolveNumber(definition.evidence_half, params),
  };
}

/**
 * The standard normal quantile (Acklam's rational approximation, relative error below 1.2e-9):
 * the only quantiles asked for are a strategy's one setting, well inside (0.5, 0.999).
 */
function normalQuantile(p: number): number {
  const a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const poly = (k: readonly number[], x: number): number => k.reduce((sum, coefficient) => sum * x + coefficient, 0);
  if (p < 0.02425) {
    const q = Math.sqrt(-2 * Math.log(p));
    return poly(c, q) / (poly(d, q) * q + 1);
  }
  if (p > 1 - 0.02425) return -normalQuantile(1 - p);
  const q = p - 0.5;
  const r = q * q;
  return (poly(a, r) * q) / (poly(b, r) * r + 1);
}

/** What the robust price needs of the expected-profit search around it. */
export interface RobustInputs {
  level: LevelEvidence;
  hurdle: number;
  economics: LoanEconomics;
  /** Break-even at the posterior mean (cost-plus without margin). */
  required: number;
  /** The expected-profit rate at the posterior mean. */
  greedyRate: number;
  low: number;
  cap: number;
}

/** The robust rate, or undefined when it is above the cap (the floor alone would lose money); with its reason. */
export function robustRate(settings: LevelUncertaintySettings, inputs: RobustInputs): { rate: number | undefined; reason: DecisionReason } {
  const { level, hurdle, economics, required, greedyRate, low, cap } = inputs;
  const used = level.used;
  const common = {
    version: String(used.version),
    loans: String(used.loans),
    loanMonths: String(used.loanMonths),
    // The default priced with: the posterior's mean probability (compile-calibration.ts, learnedMap).
    default: formatRatio(logistic(meanDefaultLogOdds(level.mean, level.sd * level.sd))),
    sd: level.sd.toFixed(2),
    ep: formatRatio(greedyRate),
  };
  if (settings.mode === 'cost_plus_floor') {
    const pessimistic = logistic(level.mean + normalQuantile(settings.quantile) * level.sd);
    const floor = Math.max(MIN_OFFER_RATE, roundRateUp(requiredRate(hurdle, { ...economics, probability: 1 - pessimistic })));
    const reason: DecisionReason = {
      code: 'price_level_uncertain',
      mode: 'cost_plus_floor',
      ...common,
      quantile: formatRatio(settings.quantile),
      pessimistic: formatRatio(pessimistic),
      floor: formatRatio(floor),
    };
    return { rate: floor > cap ? undefined : Math.max(greedyRate, floor), reason };
  }
  const n = used.loanMonths;
  const weight = n / (n + settings.evidenceHalf);
  const costPlus = Math.min(cap, Math.max(low, roundRateUp(required + settings.margin)));
  const rate = Math.min(cap, Math.max(low, roundRateUp(costPlus + weight * (greedyRate - costPlus))));
  const reason: DecisionReason = {
    code: 'price_level_uncertain',
    mode: 'blend',
    ...common,
    weight: weight.toFixed(2),
    costPlus: formatRatio(costPlus),
  };
  return { rate, reason };
}
