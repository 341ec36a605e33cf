/**
 * A prime-lending market: the credit file (score, utilization, derogatory marks, inquiries, track
 * record) drives default almost alone; payment burden and bank cash flow matter little. Many
 * lenders read the file well and price it tightly, and borrowers shop on rate.
 */
import type { MarketShape } from './market-shape.js';

export const CREDIT_SHAPE: MarketShape = {
  name: 'credit',
  description: 'the credit file drives default; many lenders price it tightly; borrowers shop on rate',
  mainDriver: { feature: 'credit_score_mid', defaultsRiseWith: 'lower' },
  repayment: {
    intercept: 2.2,
    creditScore: 0.018,
    creditUtilization: -2,
    hardInquiries: -0.22,
    derogatoryMarks: -0.5,
    completedLoans: 0.25,
    paymentToIncome: -1,
    cashFlow: 0.5,
    negativeBalances: -0.04,
    bankFeesShare: -0.01,
    cashAdvanceShare: -0.01,
    incomeVolatility: 0,
    noBankData: -0.1,
    noiseSd: 0.6,
  },
  population: { loanSizeFactor: 1, irregularIncomeShare: 0, irregularIncomeSd: 0 },
  competitors: {
    lendersByColor: [3.4, 2.8, 2, 1.5, 1.8],
    estimateErrorSd: 0.4,
    readsHiddenRisk: 0,
    base: 0.06,
    perDefault: 1.1,
    noiseSd: 0.015,
    cancelShare: 0.03,
  },
  borrowers: { kind: 'take-up-curve', midpoint: 0.55, steepness: 8 },
};
