/**
 * A market of large loans against modest incomes: the monthly payment against income drives
 * default; the credit file and the bank cash flow matter less. Fewer lenders, pricing with more
 * noise; borrowers watch the payment, so they are rate-sensitive.
 */
import type { MarketShape } from './market-shape.js';

export const BURDEN_SHAPE: MarketShape = {
  name: 'burden',
  description: 'payment against income drives default (large loans); fewer lenders, noisier prices',
  mainDriver: { feature: 'payment_to_income_at_max_rate', defaultsRiseWith: 'higher' },
  repayment: {
    intercept: 1.8,
    creditScore: 0.004,
    creditUtilization: -0.5,
    hardInquiries: -0.05,
    derogatoryMarks: -0.15,
    completedLoans: 0.1,
    paymentToIncome: -14,
    cashFlow: 1,
    negativeBalances: -0.08,
    bankFeesShare: -0.02,
    cashAdvanceShare: -0.02,
    incomeVolatility: 0,
    noBankData: -0.15,
    noiseSd: 0.6,
  },
  population: { loanSizeFactor: 2.5, irregularIncomeShare: 0, irregularIncomeSd: 0 },
  competitors: {
    lendersByColor: [1.8, 1.5, 1.1, 0.9, 1],
    estimateErrorSd: 0.8,
    readsHiddenRisk: 0,
    base: 0.08,
    perDefault: 1.4,
    noiseSd: 0.04,
    cancelShare: 0.05,
  },
  borrowers: { kind: 'take-up-curve', midpoint: 0.6, steepness: 7 },
};
