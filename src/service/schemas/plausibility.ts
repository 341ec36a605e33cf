/**
 * Plausibility rules applied at the edge, on top of the resource shapes. A list item that is
 * well formed but cannot be true (a negative loan amount, a total below the amount, a rate of
 * 5.0, a credit score of 99999) is left out as an item issue naming its id and field, so the
 * strategies never see it.
 *
 * The shape schemas (`loanRequestSchema`, ...) stay as they are: recordings, the sandbox and test
 * fixtures build resources with them. The client validates answers with the `plausible*` schemas.
 *
 * The rules never throw: an amount that is not a plain decimal, or too large to count in cents,
 * is already an issue of the shape (`decimalText`, `dollarsNumber`) at its field, and the rules
 * below pass over it rather than parse it.
 *
 * Transfers have no plausibility rule on purpose: the balance is the sum of every transfer, so
 * leaving out a day (for an amount such as "-35.505") would make it wrong by that day's money,
 * too high when the day spent some. Such an amount is rounded to the cent like any other.
 */
import type { z } from 'zod';
import {
  borrowerLoanHistoryItemSchema,
  centsOf,
  decimalPlaces,
  loanRequestSchema,
  loanSchema,
  MAX_RATE,
  MIN_RATE,
  type Loan,
} from '../../domain/index.js';

/** FICO and VantageScore 3.0 both run from 300 to 850; any number outside is not a credit score. */
const CREDIT_SCORE_MIN = 300;
const CREDIT_SCORE_MAX = 850;

type Problem = { path: PropertyKey[]; message: string };

function report(ctx: z.RefinementCtx, problems: Problem[]): void {
  for (const { path, message } of problems) ctx.addIssue({ code: 'custom', path, message });
}

/** USD amounts carry whole cents: more than two decimals is not an amount the service means. */
function moneyPlaces(text: string, field: string): Problem[] {
  // An amount that does not parse is the shape's issue (decimalText), reported at this field.
  if (centsOf(text) === undefined) return [];
  const places = decimalPlaces(text);
  return places > 2 ? [{ path: [field], message: `amount has ${places} decimals, at most 2 allowed (got "${text}")` }] : [];
}

function positiveMoney(text: string, field: string): Problem[] {
  const places = moneyPlaces(text, field);
  if (places.length > 0) return places;
  const cents = centsOf(text);
  return cents === undefined || cents > 0 ? [] : [{ path: [field], message: `amount must be positive (got "${text}")` }];
}

function rate(value: number, field: string): Problem[] {
  if (Number.isFinite(value) && value >= MIN_RATE && value <= MAX_RATE) return [];
  return [{ path: [field], message: `rate must be between ${MIN_RATE} and ${MAX_RATE} (got ${value})` }];
}

/** A float dollar amount (loans) that is positive and has no fraction of a cent. */
function positiveDollars(value: number, field: string): Problem[] {
  const cents = value * 100;
  if (!Number.isFinite(value) || value <= 0) return [{ path: [field], message: `amount must be positive (got ${value})` }];
  // A tolerance for binary floats: 500.1 * 100 is 50010.000000000004.
  if (Math.abs(cents - Math.round(cents)) > 1e-6) return [{ path: [field], message: `amount has more than 2 decimals (got ${value})` }];
  return [];
}
/**
 * Whether a credit score range text is plausible: every number in it is a score from 300 to 850,
 * at most two of them, low before high ("650-700", "800+", "<580", "720"). A text without a
 * number ("N/A") says the score is unknown and is let through: strategies read it as missing.
 */
export function creditScoreProblem(text: string): string | undefined {
  const numbers = (text.match(/\d+(?:\.\d+)?/g) ?? []).map(Number);
  if (numbers.length > 2) return `credit score range has ${numbers.length} numbers (got "${text}")`;
  if (numbers.some((n) => n < CREDIT_SCORE_MIN || n > CREDIT_SCORE_MAX)) {
    return `credit score outside ${CREDIT_SCORE_MIN} to ${CREDIT_SCORE_MAX} (got "${text}")`;
  }
  const [low, high] = numbers;
  if (low !== undefined && high !== undefined && low > high) return `credit score range runs backwards (got "${text}")`;
  return undefined;
}

const LOAN_REQUEST_FEES = ['total_fees', 'fee_legislative', 'fee_extra', 'fee_svc'] as const;

/** Loan requests (marketplace 2.2): positive amounts in whole cents, total not below the amount, rate in bounds. */
export const plausibleLoanRequestSchema = loanRequestSchema.superRefine((request, ctx) => {
  const amount = positiveMoney(request.loan_amount, 'loan_amount');
  const total = positiveMoney(request.total_amount, 'total_amount');
  const problems = [...amount, ...total];
  const amountCents = centsOf(request.loan_amount);
  const totalCents = centsOf(request.total_amount);
  if (amount.length === 0 && total.length === 0 && amountCents !== undefined && totalCents !== undefined && totalCents < amountCents) {
    problems.push({ path: ['total_amount'], message: `total ${request.total_amount} is below the loan amount ${request.loan_amount}` });
  }
  for (const fee of LOAN_REQUEST_FEES) {
    const value = request[fee];
    if (value !== undefined) problems.push(...moneyPlaces(value, fee));
  }
  problems.push(...rate(request.max_interest_rate, 'max_interest_rate'));
  const score = request.borrower.credit_score;
  const scoreProblem = typeof score === 'string' ? creditScoreProblem(score) : undefined;
  if (scoreProblem !== undefined) problems.push({ path: ['borrower', 'credit_score'], message: scoreProblem });
  report(ctx, problems);
});

/**
 * The money of a loan that can never be below zero. `net_collected` (collected minus the
 * collection fee) is not among them: a fee above what was collected makes it negative.
 */
export const LOAN_NON_NEGATIVE_AMOUNTS = [
  'monthly_payment_amount',
  'loan_return',
  'loan_balance',
  'loan_due_amount',
  'original_debt',
  'collected_amount',
  'remaining_debt',
  'collection_fee',
] as const;

/**
 * The most a loan can still owe, in dollars, or undefined when its term is not given: the amount
 * lent plus a whole term of interest on all of it, `loan_amount * (1 + interest_rate * terms / 12)`,
 * plus a cent per payment and one more for rounding. An amortising loan charges each month's
 * interest on what is still owed, which never exceeds the amount lent, so its total interest is
 * below this; what remains owed at any time is at most the total. Late fees are not in it: the
 * spec carries them on payments (`late_payment_fees_amount`, `pay_later_fees`), not on the loan.
 */
export function loanOwedCeiling(loan: Pick<Loan, 'loan_amount' | 'interest_rate' | 'payment_terms'>): number | undefined {
  const terms = loan.payment_terms;
  if (terms === undefined || !Number.isInteger(terms) || terms <= 0) return undefined;
  return loan.loan_amount * (1 + (loan.interest_rate * terms) / 12) + (terms + 1) / 100;
}

/**
 * Money a loan states that cannot be right: a negative amount, a remaining debt above the original
 * debt, or a balance or remaining debt above what the loan can owe (loanOwedCeiling). Such values
 * would move exposure and the protections' figures (a loan at -100,000 lifted the exposure cap).
 */
function loanMoneyProblems(loan: Loan): Problem[] {
  const problems: Problem[] = [];
  for (const field of LOAN_NON_NEGATIVE_AMOUNTS) {
    const value = loan[field];
    if (typeof value === 'number' && value < 0) problems.push({ path: [field], message: `amount must not be negative (got ${value})` });
  }
  if (problems.length > 0) return problems;
  const { remaining_debt: remaining, original_debt: original } = loan;
  if (typeof remaining === 'number' && typeof original === 'number' && remaining > original) {
    problems.push({ path: ['remaining_debt'], message: `remaining debt ${remaining} is above the original debt ${original}` });
  }
  const ceiling = loanOwedCeiling(loan);
  if (ceiling === undefined) return problems;
  for (const field of ['loan_balance', 'remaining_debt'] as const) {
    const value = loan[field];
    if (typeof value === 'number' && value > ceiling) {
      const most = ceiling.toFixed(2);
      problems.push({
        path: [field],
        message: `amount ${value} is above what the loan can owe (${loan.loan_amount} at ${loan.interest_rate} a year over ${String(loan.payment_terms)} months: at most ${most})`,
      });
    }
  }
  return problems;
}

/**
 * Loans (marketplace 2.5): a positive amount in whole cents, an interest rate from 0.03 to 2.0, and money
 * that can be right (loanMoneyProblems).
 */
export const plausibleLoanSchema = loanSchema.superRefine((loan, ctx) => {
  const basics = [...positiveDollars(loan.loan_amount, 'loan_amount'), ...rate(loan.interest_rate, 'interest_rate')];
  // The ceiling is computed from the amount and the rate: only once those are sound.
  report(ctx, basics.length > 0 ? basics : loanMoneyProblems(loan));
});

/** A borrower's past loans (marketplace 2.8): as loans, with amount and rate as decimal text. */
export const plausibleBorrowerLoanHistoryItemSchema = borrowerLoanHistoryItemSchema.superRefine((item, ctx) => {
  // An interest rate that is not a plain decimal is the shape's issue (decimalText).
  const rateProblems = centsOf(item.interest_rate) === undefined ? [] : rate(Number(item.interest_rate), 'interest_rate');
  report(ctx, [...positiveMoney(item.loan_amount, 'loan_amount'), ...rateProblems]);
});
