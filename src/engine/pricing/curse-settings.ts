/**
 * `pricing.winners_curse` compiled (docs/market-model.md, "The winner's curse"): where its prior
 * is centred (the strategy's own `w`, else the market file's fitted one, else 0) and the w a
 * price uses now: the run's learned one while the decide step has learners active (a backtest
 * feeds it funded loans' fates as the replay reaches them), else the prior's centre.
 */
import type { PricingDefinition } from '../definition/strategy-schema.js';
import type { LoanEconomics } from '../../math/index.js';
import type { PartialMarketResponse } from '../market-response.js';
import { activeLearning } from '../market/active-learning.js';
import { CURSE_TERMS, wonRepayProbability, type CurseSettings } from '../market/repay-curse.js';
import type { CurseCurve } from './won-economics.js';

/** The strategy's curse settings, when it prices for the winner's curse (expected_profit only). */
export function curseSettingsOf(pricing: PricingDefinition, fitted: PartialMarketResponse | undefined): CurseSettings | undefined {
  const curse = pricing.winners_curse;
  if (curse === undefined || !curse.enabled || pricing.mode !== 'expected_profit') return undefined;
  const centre = curse.w ?? fitted?.curse ?? [];
  return { priorSd: curse.prior_sd, priorMean: CURSE_TERMS.map((_, i) => centre[i] ?? 0) };
}

/** The curse a price uses now: the active learner's posterior mean, else the prior's centre. */
export function curseCurveOf(settings: CurseSettings, strategyName: string | undefined): CurseCurve {
  const state = strategyName === undefined ? undefined : activeLearning()?.curse.stateFor(strategyName, settings);
  if (state === undefined) return { w: [...settings.priorMean], evidence: 0 };
  return { w: state.posterior.mean, evidence: state.evidence };
}

/** What the price's reason adds: the repayment chance among loans won at the rate, when it differs from the score's. */
export function curseText(curse: CurseCurve | undefined, economics: LoanEconomics, rate: number, maxRate: number): string {
  if (curse === undefined) return '';
  const won = wonRepayProbability(economics.probability, rate, maxRate, curse.w);
  if (won === economics.probability) return '';
  return `; P(repay | won) ${won.toFixed(2)} against scored ${economics.probability.toFixed(2)} (winner's curse, ${curse.evidence} loans)`;
}
