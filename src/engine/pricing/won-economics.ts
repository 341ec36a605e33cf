/**
 * The loan economics pricing values a rate with when the strategy prices for the winner's curse
 * (`pricing.winners_curse`; market/repay-curse.ts): the repayment chance is that of the loans won
 * at that rate, so a rate only the worst borrowers accept is valued as such.
 */
import type { LoanEconomics } from '../../math/index.js';
import { wonRepayProbability } from '../market/repay-curse.js';

/** What a price curve carries of the curse (plain data: explanations redraw it). */
export interface CurseCurve {
  /** The correction's posterior mean w over [1, u, u·logit p]. */
  w: number[];
  /** Funded loans of known fate it rests on (beyond the prior). */
  evidence: number;
}

/** `economics` at `rate`: itself without a curse, else with P(repay | won at rate). */
export function economicsAt(economics: LoanEconomics, rate: number, maxRate: number, curse: CurseCurve | undefined): LoanEconomics {
  if (curse === undefined) return economics;
  return { ...economics, probability: wonRepayProbability(economics.probability, rate, maxRate, curse.w) };
}
