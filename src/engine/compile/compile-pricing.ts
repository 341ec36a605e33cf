/**
 * Pricing compiled to a closure: the lowest annual rate that reaches the target expected return
 * at the estimated probability (loan-math.ts), plus the margin, rounded up to 0.0001 and kept
 * within [0.03, cap], where cap is the lowest of max_interest_rate, `ceiling` and
 * `ceiling_share_of_max` x max_interest_rate. A required rate above the cap is a skip.
 */
import type { FeatureSource } from '../features/feature-source.js';
import { formatRatio } from '../decision.js';
import { resolveNumber } from '../definition/param-values.js';
import type { PricingDefinition } from '../definition/strategy-schema.js';
import { expectedAnnualReturn, MIN_OFFER_RATE, paymentFactor, requiredRate, type LoanEconomics } from '../loan-math.js';

export type PriceResult =
  | { ok: true; rate: number; requiredRate: number; expectedReturn: number; reasons: string[] }
  | { ok: false; requiredRate?: number; reasons: string[] };

export type CompiledPricing = (source: FeatureSource, probability: number) => PriceResult;

/** Rounds a rate up to 4 decimals, so rounding never takes it below what was required. */
function roundUp(rate: number): number {
  return Math.ceil(rate * 10_000 - 1e-9) / 10_000;
}

export function compilePricing(pricing: PricingDefinition, params: Record<string, number>): CompiledPricing {
  const n = (value: Parameters<typeof resolveNumber>[0]): number => resolveNumber(value, params);
  const target = n(pricing.target_return);
  const recovery = n(pricing.recovery);
  const servicingCost = n(pricing.servicing_cost);
  const margin = n(pricing.margin);
  const ceiling = pricing.ceiling === undefined ? Number.POSITIVE_INFINITY : n(pricing.ceiling);
  const shareOfMax = pricing.ceiling_share_of_max === undefined ? 1 : n(pricing.ceiling_share_of_max);
  const maxPaymentToIncome = pricing.max_payment_to_income === undefined ? undefined : n(pricing.max_payment_to_income);
  const fundLoanAmountOnly = pricing.funded_amount === 'loan_amount';

  return (source, probability) => {
    const maxRate = source.request.max_interest_rate;
    const economics: LoanEconomics = {
      probability,
      recovery,
      servicingCost,
      fundedCents: fundLoanAmountOnly ? source.loanAmountCents : source.totalAmountCents,
      repaidPrincipalCents: source.totalAmountCents,
      terms: source.request.loan_terms,
    };
    const required = requiredRate(target, economics);
    let cap = maxRate;
    let capName = 'max_interest_rate';
    if (ceiling < cap) [cap, capName] = [ceiling, 'ceiling'];
    if (shareOfMax * maxRate < cap) [cap, capName] = [shareOfMax * maxRate, 'ceiling_share_of_max'];
    if (required > cap) {
      return { ok: false, requiredRate: required, reasons: [`price required_rate ${formatRatio(required)} > ${capName} ${formatRatio(cap)}`] };
    }
    if (cap < MIN_OFFER_RATE) {
      return { ok: false, requiredRate: required, reasons: [`price ${capName} ${formatRatio(cap)} < minimum rate ${formatRatio(MIN_OFFER_RATE)}`] };
    }
    const rate = Math.min(cap, Math.max(MIN_OFFER_RATE, roundUp(required + margin)));
    const reasons = [`price required_rate ${formatRatio(required)}, offered ${formatRatio(rate)}`];
    if (maxPaymentToIncome !== undefined) {
      const annual = source.borrower.annual_income;
      if (typeof annual !== 'number' || annual <= 0) {
        return { ok: false, requiredRate: required, reasons: ['price payment_to_income unknown (annual_income missing)'] };
      }
      const share = ((source.totalAmountCents / 100) * paymentFactor(rate, economics.terms)) / (annual / 12);
      if (share > maxPaymentToIncome) {
        return { ok: false, requiredRate: required, reasons: [`price payment_to_income ${formatRatio(share)} > ${formatRatio(maxPaymentToIncome)}`] };
      }
    }
    return { ok: true, rate, requiredRate: required, expectedReturn: expectedAnnualReturn(rate, economics), reasons };
  };
}
