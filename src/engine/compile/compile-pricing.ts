/**
 * Pricing compiled to a closure. Every mode offers within [0.03, cap], where cap is the lowest of
 * max_interest_rate, `ceiling` and `ceiling_share_of_max` x max_interest_rate:
 * - cost_plus (default): the lowest annual rate that reaches the target expected return at the
 *   estimated probability (loan-math.ts), plus the margin, rounded up to 0.0001. A required rate
 *   above the cap is a skip.
 * - expected_profit: the rate in [break-even, cap] that maximises P(accept) x expected profit
 *   above the target_return hurdle (pricing/expected-profit.ts), under the market response of
 *   `market`, over the one a trained model carries (`fitted`), over DEFAULT_MARKET_RESPONSE.
 *   A break-even above the cap, or no rate with a positive expected profit, is a skip.
 * - max_rate: the cap itself (the naive baseline).
 * With `learning` (expected_profit only), P(accept) is the strategy's learned market response
 * when the decide step has learners active (pricing/learned-price.ts), else the configured one.
 */
import type { FeatureSource } from '../features/feature-source.js';
import type { DecisionReason } from '../../domain/decision-reason.js';
import { formatRatio, type ModelledOutcome } from '../decision.js';
import { resolveNumber } from '../definition/param-values.js';
import type { NumberOrParam, PricingDefinition } from '../definition/strategy-schema.js';
import { expectedAnnualReturn, MIN_OFFER_RATE, paymentFactor, requiredRate, roundRateUp, type LoanEconomics } from '../../math/index.js';
import {
  expectedAcceptProbability,
  marketResponse,
  type CompetitionModel,
  type MarketResponse,
  type TakeUpCurve,
} from '../market-response.js';
import { activeLearning } from '../market/active-learning.js';
import type { LearningSettings } from '../market/market-learner.js';
import { curvePoint, optimalRate, type CurvePoint, type PriceCurve } from '../pricing/expected-profit.js';
import { levelUncertaintyOf, robustRate } from '../pricing/level-uncertainty.js';
import type { LevelEvidence } from './learned-calibration.js';
import type { FittedMarket } from '../model/load-model-file.js';
import { learnedPrice, movedByLaterRule } from '../pricing/learned-price.js';
import { shiftedHurdle, type CashHurdleSettings, type CashPosition } from '../pricing/cash-hurdle.js';
import { curseCurveOf, curseSettingsOf, curseText } from '../pricing/curse-settings.js';

export type PriceResult =
  | {
      ok: true;
      rate: number;
      requiredRate: number;
      expectedReturn: number;
      reasons: DecisionReason[];
      curve?: PriceCurve;
      modelled?: ModelledOutcome;
    }
  | { ok: false; requiredRate?: number; reasons: DecisionReason[] };

/**
 * `cash`: the lender's cash position, for a strategy whose hurdle follows it (`cash_hurdle`); absent, the hurdle as written.
 * `level`: the learned default level and its uncertainty (score.calibration method learned), for `level_uncertainty`.
 */
export type CompiledPricing = (source: FeatureSource, probability: number, cash?: CashPosition, level?: LevelEvidence) => PriceResult;

/** Cents as USD with 2 decimals, for reasons. */
function usd(cents: number): string {
  return (cents / 100).toFixed(2);
}

/** A skip, with the required rate when there is one. */
function skipped(required: number, reason: DecisionReason): PriceResult {
  return { ok: false, requiredRate: required, reasons: [reason] };
}

/** Made only on the path that returns it: most requests are priced once. */
function capTooLow(capName: string, cap: number): DecisionReason {
  return { code: 'price_cap_below_minimum', cap: capName, rate: formatRatio(cap), minimum: formatRatio(MIN_OFFER_RATE) };
}

/** Only the numbers that are set, so an unset one keeps the value underneath. */
function definedEntries<T extends object>(entries: Array<[keyof T, number | undefined]>): Partial<T> {
  return Object.fromEntries(entries.filter(([, value]) => value !== undefined)) as Partial<T>;
}

/** The strategy's `market` setting, over the fitted one, over the defaults. */
export function resolveMarket(
  market: PricingDefinition['market'],
  params: Record<string, number>,
  fitted: FittedMarket = {},
): MarketResponse {
  const n = (value: NumberOrParam | undefined): number | undefined => (value === undefined ? undefined : resolveNumber(value, params));
  const takeUp = market?.take_up;
  const competition = market?.competition;
  const own = {
    takeUp: definedEntries<TakeUpCurve>([
      ['midpoint', n(takeUp?.midpoint)],
      ['steepness', n(takeUp?.steepness)],
      ['midpointPerDefault', n(takeUp?.midpoint_per_default)],
      ['steepnessPerDefault', n(takeUp?.steepness_per_default)],
    ]),
    competition: definedEntries<CompetitionModel>([
      ['share', n(competition?.share)],
      ['intercept', n(competition?.intercept)],
      ['perDefault', n(competition?.per_default)],
      ['spread', n(competition?.spread)],
      ['width', n(competition?.width)],
    ]),
  };
  return marketResponse(own, marketResponse(fitted));
}

/**
 * The offer at `rate` as the models see it: its chance of acceptance (the search's own number
 * when it searched) and the profit either way, from the same loan arithmetic as the price.
 */
function modelledOutcome(
  rate: number,
  economics: LoanEconomics,
  maxRate: number,
  market: MarketResponse,
  chosen: CurvePoint | undefined,
): ModelledOutcome {
  const { fundedCents, repaidPrincipalCents, terms, recovery, servicingCost } = economics;
  const due = repaidPrincipalCents * paymentFactor(rate, terms) * terms * (1 - servicingCost);
  return {
    acceptProbability:
      chosen !== undefined ? chosen.acceptProbability : expectedAcceptProbability(rate, maxRate, 1 - economics.probability, market),
    repaidProfitCents: due - fundedCents,
    defaultProfitCents: due * recovery - fundedCents,
  };
}

/** The strategy's `pricing.learning`, when it learns. */
function learningSettings(
  pricing: PricingDefinition,
  params: Record<string, number>,
  market: MarketResponse,
): LearningSettings | undefined {
  const learning = pricing.learning;
  if (learning === undefined || !learning.enabled || pricing.mode !== 'expected_profit') return undefined;
  return { priorSd: learning.prior_sd, exploreShare: resolveNumber(learning.explore_share, params), market };
}

/** What the price's reason adds when a learned market response priced it. */
function learnedText(curve: PriceCurve): string {
  const learned = curve.learning;
  if (learned === undefined) return '';
  const exploring =
    learned.exploration === undefined
      ? ''
      : `; exploring (greedy ${formatRatio(learned.exploration.greedyRate)}, gives up ${usd(learned.exploration.lossCents)} USD)`;
  return `; market learned v${learned.version} (${learned.evidence} fates)${exploring}`;
}

/** The strategy's `cash_hurdle`, when enabled. */
function compileCashHurdle(setting: PricingDefinition['cash_hurdle'], params: Record<string, number>): CashHurdleSettings | undefined {
  if (setting === undefined || !setting.enabled) return undefined;
  return {
    maxRaise: resolveNumber(setting.max_raise, params),
    maxCut: resolveNumber(setting.max_cut, params),
    windowDays: resolveNumber(setting.window_days, params),
  };
}

/**
 * `strategyName` names the learner (`pricing.learning`) among the active ones; without it, or
 * without learners active, a learning strategy prices with its configured market.
 */
export function compilePricing(
  pricing: PricingDefinition,
  params: Record<string, number>,
  fitted?: FittedMarket,
  strategyName?: string,
): CompiledPricing {
  const n = (value: NumberOrParam): number => resolveNumber(value, params);
  const mode = pricing.mode;
  const target = n(pricing.target_return);
  const recovery = n(pricing.recovery);
  const servicingCost = n(pricing.servicing_cost);
  const margin = n(pricing.margin);
  const ceiling = pricing.ceiling === undefined ? Number.POSITIVE_INFINITY : n(pricing.ceiling);
  const shareOfMax = pricing.ceiling_share_of_max === undefined ? 1 : n(pricing.ceiling_share_of_max);
  const maxPaymentToIncome = pricing.max_payment_to_income === undefined ? undefined : n(pricing.max_payment_to_income);
  const fundLoanAmountOnly = pricing.funded_amount === 'loan_amount';
  const market = resolveMarket(pricing.market, params, fitted);
  const learning = learningSettings(pricing, params, market);
  const cashHurdle = compileCashHurdle(pricing.cash_hurdle, params);
  const curseSettings = curseSettingsOf(pricing, fitted);
  const levelUncertainty = mode === 'expected_profit' ? levelUncertaintyOf(pricing.level_uncertainty, params) : undefined;

  const priceAt = (source: FeatureSource, probability: number, hurdle: number, level: LevelEvidence | undefined): PriceResult => {
    const maxRate = source.request.max_interest_rate;
    const economics: LoanEconomics = {
      probability,
      recovery,
      servicingCost,
      fundedCents: fundLoanAmountOnly ? source.loanAmountCents : source.totalAmountCents,
      repaidPrincipalCents: source.totalAmountCents,
      terms: source.request.loan_terms,
    };
    // NaN: a strategy without a score (max_rate only) has no estimate to require a rate from.
    const required = Number.isNaN(probability) ? Number.NaN : requiredRate(hurdle, economics);
    let cap = maxRate;
    let capName = 'max_interest_rate';
    if (ceiling < cap) {
      cap = ceiling;
      capName = 'ceiling';
    }
    if (shareOfMax * maxRate < cap) {
      cap = shareOfMax * maxRate;
      capName = 'ceiling_share_of_max';
    }

    let rate: number;
    let reasons: DecisionReason[];
    let curve: PriceCurve | undefined;
    let chosen: CurvePoint | undefined;
    if (mode === 'max_rate') {
      if (cap < MIN_OFFER_RATE) return skipped(required, capTooLow(capName, cap));
      rate = cap;
      // Without a score (probability NaN) there is no required rate to show.
      const requiredText = Number.isNaN(required) ? {} : { required: formatRatio(required) };
      reasons = [{ code: 'price_max_rate', rate: formatRatio(rate), cap: capName, ...requiredText }];
    } else if (mode === 'expected_profit') {
      if (cap < MIN_OFFER_RATE) return skipped(required, capTooLow(capName, cap));
      let low = Math.max(MIN_OFFER_RATE, roundRateUp(required));
      if (low > cap)
        return skipped(required, {
          code: 'price_break_even_above_cap',
          breakEven: formatRatio(required),
          cap: capName,
          rate: formatRatio(cap),
        });
      const curse = curseSettings === undefined ? undefined : curseCurveOf(curseSettings, strategyName);
      // Under a learned curse the break-even moves with the rate (the loans won low may repay
      // better than scored), so the search starts at the lowest rate allowed.
      if (curse !== undefined && curse.w.some((value) => value !== 0)) low = MIN_OFFER_RATE;
      curve = {
        economics,
        targetReturn: hurdle,
        maxInterestRate: maxRate,
        market,
        breakEvenRate: required,
        low,
        cap,
        capName,
        ...(curse === undefined ? {} : { curse }),
      };
      const learner =
        learning === undefined || strategyName === undefined ? undefined : activeLearning()?.learnerFor(strategyName, learning);
      let best: CurvePoint;
      if (learner === undefined) best = optimalRate(curve);
      else ({ chosen: best, curve } = learnedPrice(curve, learner, String(source.request.id)));
      if (!(best.valueCents > 0)) {
        return skipped(required, {
          code: 'price_no_profit',
          low: formatRatio(low),
          cap: formatRatio(cap),
          breakEven: formatRatio(required),
        });
      }
      rate = best.rate;
      chosen = best;
      // While the learned default level is uncertain, the uncertainty moves the rate (level-uncertainty.ts).
      let levelReason: DecisionReason | undefined;
      if (levelUncertainty !== undefined && level !== undefined) {
        const robust = robustRate(levelUncertainty, { level, hurdle, economics, required, greedyRate: best.rate, low, cap });
        levelReason = robust.reason;
        if (robust.rate === undefined) {
          const floor =
            robust.reason.code === 'price_level_uncertain' && robust.reason.mode === 'cost_plus_floor' ? robust.reason.floor : '';
          return {
            ok: false,
            requiredRate: required,
            reasons: [robust.reason, { code: 'price_break_even_above_cap', breakEven: floor, cap: capName, rate: formatRatio(cap) }],
          };
        }
        if (robust.rate !== best.rate) {
          rate = robust.rate;
          chosen = curvePoint(curve, rate);
          // An exploring price the rule moved is judged against the greedy price the rule would have moved too.
          const greedy = curve.learning?.exploration?.greedyRate;
          const greedyMoved =
            greedy === undefined
              ? rate
              : robustRate(levelUncertainty, { level, hurdle, economics, required, greedyRate: greedy, low, cap }).rate;
          curve = movedByLaterRule(curve, rate, greedyMoved ?? rate);
        }
      }
      const learned = learnedText(curve);
      const curseWords = curseText(curve.curse, economics, rate, maxRate);
      const figures = {
        rate: formatRatio(rate),
        accept: chosen.acceptProbability.toFixed(2),
        profit: usd(chosen.profitCents),
        value: usd(chosen.valueCents),
        breakEven: formatRatio(required),
      };
      reasons = [
        {
          code: 'price_expected_profit',
          ...figures,
          ...(learned === '' ? {} : { learned }),
          ...(curseWords === '' ? {} : { curse: curseWords }),
        },
      ];
      if (levelReason !== undefined) reasons.push(levelReason);
    } else {
      if (required > cap)
        return skipped(required, {
          code: 'price_required_above_cap',
          required: formatRatio(required),
          cap: capName,
          rate: formatRatio(cap),
        });
      if (cap < MIN_OFFER_RATE) return skipped(required, capTooLow(capName, cap));
      rate = Math.min(cap, Math.max(MIN_OFFER_RATE, roundRateUp(required + margin)));
      reasons = [{ code: 'price_required_rate', required: formatRatio(required), rate: formatRatio(rate) }];
    }

    if (maxPaymentToIncome !== undefined) {
      const annual = source.borrower.annual_income;
      if (typeof annual !== 'number' || annual <= 0) return skipped(required, { code: 'price_income_unknown' });
      const share = ((source.totalAmountCents / 100) * paymentFactor(rate, economics.terms)) / (annual / 12);
      if (share > maxPaymentToIncome)
        return skipped(required, { code: 'price_payment_to_income', share: formatRatio(share), max: formatRatio(maxPaymentToIncome) });
    }
    // The search's point already holds it (the same function of the same rate and economics).
    const expectedReturn = chosen !== undefined ? chosen.expectedReturn : expectedAnnualReturn(rate, economics);
    const result: PriceResult = { ok: true, rate, requiredRate: required, expectedReturn, reasons };
    if (curve !== undefined) result.curve = curve;
    // Without a score (NaN) there is no default probability to model the outcome with.
    if (!Number.isNaN(probability)) result.modelled = modelledOutcome(rate, economics, maxRate, market, chosen);
    return result;
  };
  if (cashHurdle === undefined || mode === 'max_rate')
    return (source, probability, _cash, level) => priceAt(source, probability, target, level);
  // The hurdle each request is priced with moves with the cash position; the reason says by how much.
  return (source, probability, cash, level) => {
    if (cash === undefined) return priceAt(source, probability, target, level);
    const shifted = shiftedHurdle(cashHurdle, target, cash, fundLoanAmountOnly ? source.loanAmountCents : source.totalAmountCents);
    const result = priceAt(source, probability, shifted.targetReturn, level);
    result.reasons.push(shifted.reason);
    return result;
  };
}
