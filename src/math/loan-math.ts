/**
 * The loan arithmetic pricing rests on, on the ground floor (src/math/) so the backtester's market
 * model, the sandbox's schedules and the lender's ledger use the same numbers. Rates are annual,
 * in the API's unit (0.03 = 3% a year); `terms` is the number of monthly payments (`loan_terms`);
 * a loan is repaid by equal monthly payments (amortization).
 */

/** Months in a year: the monthly rate is the annual rate divided by this. */
const MONTHS_PER_YEAR = 12;

/** The lowest rate the service accepts on an offer (marketplace 4.2, part 8). */
export const MIN_OFFER_RATE = 0.03;
/** The highest rate the service accepts on an offer. */
export const MAX_OFFER_RATE = 2.0;

/** Rounds a rate up to 4 decimals, so rounding never takes it below what was required. */
export function roundRateUp(rate: number): number {
  return Math.ceil(rate * 10_000 - 1e-9) / 10_000;
}

/** The monthly payment per unit of principal: i / (1 - (1 + i)^-n), with i = rate / 12. */
export function paymentFactor(annualRate: number, terms: number): number {
  const monthly = annualRate / MONTHS_PER_YEAR;
  if (monthly === 0) return 1 / terms;
  return monthly / (1 - Math.pow(1 + monthly, -terms));
}

/** The monthly payment on `principalCents` at `annualRate` over `terms` months, in whole cents. */
export function monthlyPayment(principalCents: number, annualRate: number, terms: number): number {
  return Math.round(principalCents * paymentFactor(annualRate, terms));
}

/**
 * One month's interest on `balanceCents` at `annualRate`, in whole cents: the part of an
 * instalment that is interest, the rest repaying principal. The sandbox's schedules and the
 * lender's ledger (money/loan-ledger.ts) split instalments by this one rule.
 */
export function monthInterestCents(balanceCents: number, annualRate: number): number {
  return Math.round(balanceCents * (annualRate / MONTHS_PER_YEAR));
}

/** What the borrower pays in all, in whole cents: the monthly payment times the terms. */
export function totalRepayment(principalCents: number, annualRate: number, terms: number): number {
  return monthlyPayment(principalCents, annualRate, terms) * terms;
}

/**
 * (1 + monthly)^-terms, by repeated squaring when `terms` is a whole number (a loan request's
 * always is): within a few units in the last place of Math.pow and several times faster, for
 * the pricing searches that need it dozens of times a request. paymentFactor keeps Math.pow,
 * because payments are rounded to cents from it.
 */
function discountFactor(monthly: number, terms: number): number {
  if (!Number.isInteger(terms) || terms < 0 || terms > 1200) return Math.pow(1 + monthly, -terms);
  let power = 1;
  let base = 1 + monthly;
  for (let exponent = terms; exponent > 0; exponent >>= 1) {
    if (exponent & 1) power *= base;
    base *= base;
  }
  return 1 / power;
}

/** paymentFactor through discountFactor: the same value to a few units in the last place. */
export function fastPaymentFactor(annualRate: number, terms: number): number {
  const monthly = annualRate / MONTHS_PER_YEAR;
  if (monthly === 0) return 1 / terms;
  return monthly / (1 - discountFactor(monthly, terms));
}

/** Rates searched for by rateForPaymentFactor lie in [0, this]. */
const HIGHEST_SOLVED_RATE = 50;

/**
 * The annual rate whose payment factor is `factor` (the inverse of paymentFactor), by Newton's
 * method on g(i) = i − factor × (1 − (1 + i)^-n) for the monthly rate i. g is convex with
 * g(0) = 0, so from any start above the root the steps fall monotonically onto it; the start,
 * from the payment factor's tangent at zero (1/n + i(n + 1)/(2n), below the convex factor), is
 * above the root and close to it (about five steps to full precision, where bisection took 64).
 */
export function rateForPaymentFactor(factor: number, terms: number): number {
  if (factor <= 1 / terms) return 0;
  if (fastPaymentFactor(HIGHEST_SOLVED_RATE, terms) < factor) return Number.POSITIVE_INFINITY;
  let monthly = Math.min((2 * terms * (factor - 1 / terms)) / (terms + 1), HIGHEST_SOLVED_RATE / MONTHS_PER_YEAR);
  for (let step = 0; step < 100; step += 1) {
    const discount = discountFactor(monthly, terms);
    const slope = 1 - (factor * terms * discount) / (1 + monthly);
    const next = monthly - (monthly - factor * (1 - discount)) / slope;
    // Rounding ends the monotone descent: stop at the first step that does not go down.
    if (!(next < monthly)) break;
    const converged = monthly - next <= monthly * 1e-15;
    monthly = next;
    if (converged) break;
  }
  return monthly * MONTHS_PER_YEAR;
}

/** What the lender expects to collect and what it costs, for one loan. */
export interface LoanEconomics {
  /** Estimated probability that the borrower repays in full. */
  probability: number;
  /** Share of the total due that is still collected from a borrower who defaults (0 to 1). */
  recovery: number;
  /** Share of every collected payment lost to servicing and collection costs (0 to 1). */
  servicingCost: number;
  /** The amount the lender funds, in cents. */
  fundedCents: number;
  /** The amount the borrower repays with interest (the loan plus its fees), in cents. */
  repaidPrincipalCents: number;
  terms: number;
}

/** Expected share of the total due that is collected: p + (1 - p) * recovery, less servicing. */
export function collectedShare(economics: LoanEconomics): number {
  const { probability, recovery, servicingCost } = economics;
  return (probability + (1 - probability) * recovery) * (1 - servicingCost);
}

/**
 * What the lender must collect for the loan to earn `targetReturn` a year on the funded amount:
 * F * (1 + targetReturn * terms / 12), in (unrounded) cents. With a zero target it is F itself.
 */
export function hurdleCents(targetReturn: number, economics: Pick<LoanEconomics, 'fundedCents' | 'terms'>): number {
  return economics.fundedCents * (1 + (targetReturn * economics.terms) / MONTHS_PER_YEAR);
}

/** Expected amount collected at `annualRate`: total due times the collected share, in (unrounded) cents. */
export function expectedCollectedCents(annualRate: number, economics: LoanEconomics): number {
  const { repaidPrincipalCents, terms } = economics;
  return repaidPrincipalCents * paymentFactor(annualRate, terms) * terms * collectedShare(economics);
}

/**
 * Expected profit above the hurdle at `annualRate`: expected collected minus
 * hurdleCents(targetReturn), in (unrounded) cents. Zero at requiredRate(targetReturn).
 */
export function expectedProfitCents(annualRate: number, targetReturn: number, economics: LoanEconomics): number {
  return expectedCollectedCents(annualRate, economics) - hurdleCents(targetReturn, economics);
}

/**
 * Expected annual return at `annualRate`: (expected collected - funded) / funded, spread over
 * the loan's life in years (simple annualization: times 12 / terms).
 */
export function expectedAnnualReturn(annualRate: number, economics: LoanEconomics): number {
  const { fundedCents, repaidPrincipalCents, terms } = economics;
  const totalDue = repaidPrincipalCents * paymentFactor(annualRate, terms) * terms;
  const collected = totalDue * collectedShare(economics);
  return ((collected - fundedCents) / fundedCents) * (MONTHS_PER_YEAR / terms);
}

/**
 * The lowest annual rate at which expectedAnnualReturn reaches `targetReturn` (where the expected
 * collected amount covers hurdleCents: the break-even rate of expected-profit pricing); 0 when even a
 * zero rate does, +Infinity when no rate can (for instance when nothing is expected back).
 */
export function requiredRate(targetReturn: number, economics: LoanEconomics): number {
  const { repaidPrincipalCents, terms } = economics;
  const share = collectedShare(economics);
  if (share <= 0 || repaidPrincipalCents <= 0) return Number.POSITIVE_INFINITY;
  const factor = hurdleCents(targetReturn, economics) / (share * repaidPrincipalCents * terms);
  return rateForPaymentFactor(factor, terms);
}

/**
 * The repayment probability at which `annualRate` just earns `targetReturn` on the loan: requiredRate
 * read the other way (the collected share the rate needs, collectedShare solved for p). Unbounded:
 * above 1 when even full repayment falls short, below 0 when a certain default would still do. The
 * market's past prices are read through it (engine/market/history-anchor.ts).
 */
export function breakEvenRepayProbability(annualRate: number, targetReturn: number, economics: Omit<LoanEconomics, 'probability'>): number {
  const { repaidPrincipalCents, terms, recovery, servicingCost } = economics;
  const needed = hurdleCents(targetReturn, economics) / (repaidPrincipalCents * paymentFactor(annualRate, terms) * terms);
  return (needed / (1 - servicingCost) - recovery) / (1 - recovery);
}
