/**
 * The sandbox's first market (the default): default is driven by a mix of the credit file, the
 * payment burden and the bank cash flow, none dominating; competition is moderate.
 */
import type { MarketShape } from './market-shape.js';

export const CLASSIC_SHAPE: MarketShape = {
  name: 'classic',
  description: 'a mix of credit file, payment burden and cash flow drives default; moderate competition',
  mainDriver: { feature: 'credit_score_mid', defaultsRiseWith: 'lower' },
  repayment: {
    intercept: 1.9,
    creditScore: 0.011,
    creditUtilization: -1.4,
    hardInquiries: -0.15,
    derogatoryMarks: -0.35,
    completedLoans: 0.22,
    paymentToIncome: -4,
    cashFlow: 2.2,
    negativeBalances: -0.2,
    bankFeesShare: -0.06,
    cashAdvanceShare: -0.05,
    incomeVolatility: 0,
    noBankData: -0.25,
    noiseSd: 0.7,
  },
  population: { loanSizeFactor: 1, irregularIncomeShare: 0, irregularIncomeSd: 0 },
  competitors: {
    lendersByColor: [2.6, 2.1, 1.5, 1.2, 1.4],
    estimateErrorSd: 0.6,
    readsHiddenRisk: 0,
    base: 0.07,
    perDefault: 1.25,
    noiseSd: 0.025,
    cancelShare: 0.04,
  },
  borrowers: { kind: 'take-up-curve', midpoint: 0.65, steepness: 6 },
};
