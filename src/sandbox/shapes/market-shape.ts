/**
 * A market shape: what drives default in a sandbox market and how its other lenders and its
 * borrowers behave, as one small declarative object. Shapes differ so that a strategy (or a
 * model) tuned to one generator's quirk is caught on another (issue 13, docs/sandbox.md).
 *
 * Every shape keeps the hidden repayment chance a logistic function of features a lender can
 * observe, plus hidden normal noise: a model can learn what drives it, never all of it.
 */
import type { BorrowerRule } from '../borrower-rules.js';

/**
 * Weights of the hidden repayment logit. Each weight multiplies one observable quantity measured
 * from a reference point, so the intercept is the logit of a typical borrower.
 */
export interface RepaymentWeights {
  intercept: number;
  /** Per credit-score point above 650. */
  creditScore: number;
  /**
   * Per credit-score point above 700, on top of `creditScore` (absent: none). A shifted world's
   * (world-shift.ts) way to bend the score's link: negative enough, top scores repay less.
   */
  creditScoreAbove700?: number;
  /** Per unit of credit utilization (0 to 1) above 0.4. */
  creditUtilization: number;
  hardInquiries: number;
  derogatoryMarks: number;
  /** Per completed loan on the service, up to 5. */
  completedLoans: number;
  /** Per unit of payment to stated monthly income above 0.08 (payment at the reference rate, 0.30). */
  paymentToIncome: number;
  /** Per unit of bank cash flow, (income − spending) / income over 90 days, clamped to ±0.5. */
  cashFlow: number;
  /** Per time the bank balance went negative in 90 days, up to 10. */
  negativeBalances: number;
  /** Per percent of spending that went to bank fees. */
  bankFeesShare: number;
  /** Per percent of spending that went to cash advances. */
  cashAdvanceShare: number;
  /** Per unit of income volatility (sd / mean of agg_90's three monthly incomes) above 0.2. */
  incomeVolatility: number;
  /** Added when the borrower has no banking data. */
  noBankData: number;
  /** Standard deviation of the hidden noise added to the logit. */
  noiseSd: number;
}

/** Who asks for loans, beyond the common generator (borrower-generator.ts). */
export interface BorrowerPopulation {
  /** Multiplies every loan amount: a market of bigger (or smaller) loans against the same incomes. */
  loanSizeFactor: number;
  /** Share of borrowers paid irregularly (gig work, commissions): each month's pay swings. */
  irregularIncomeShare: number;
  /** Standard deviation of an irregular earner's monthly log pay multiplier. */
  irregularIncomeSd: number;
}

/** How the other lenders behave. */
export interface CompetitorBehaviour {
  /** Mean number of interested lenders by risk level (low, medium, high, friends, crypto). */
  lendersByColor: readonly [number, number, number, number, number];
  /** Each lender's error on the repayment logit (standard deviation): how well it reads risk. */
  estimateErrorSd: number;
  /**
   * How much of the borrower's hidden risk (the noise no feature shows) lenders read, 0 to 1:
   * 0, they see only what the features say; 1, their prices follow the true risk, so the
   * requests they contest are the good ones.
   */
  readsHiddenRisk: number;
  /** A lender asks base + perDefault × the default probability it believes, plus Normal(0, noiseSd). */
  base: number;
  perDefault: number;
  noiseSd: number;
  /** Share of requests the borrower cancels before deciding. */
  cancelShare: number;
}

export interface MarketShape {
  /** The `--shape` name. */
  name: string;
  /** One line for `--help` and the export summary. */
  description: string;
  /** The engine feature that drives default most in this shape, and how (for tests and docs). */
  mainDriver: { feature: string; defaultsRiseWith: 'higher' | 'lower' };
  repayment: RepaymentWeights;
  population: BorrowerPopulation;
  competitors: CompetitorBehaviour;
  /** Where each borrower's reservation rate sits (borrower-rules.ts): the highest rate it accepts. */
  borrowers: BorrowerRule;
  /**
   * How the rates of a borrower's completed loans (marketplace 4.9) are drawn (history-rates.ts):
   * `market`, as this world's lenders would have priced the borrower; `uniform`, evenly between 8 %
   * and the risk level's maximum whatever the borrower (the sandbox before issue 35). Absent: `market`.
   */
  historyRates?: HistoryRateMode;
}

/** How a borrower's past loans were priced (`--history-rates`). */
export type HistoryRateMode = 'market' | 'uniform';
