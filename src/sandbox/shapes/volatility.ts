/**
 * A market of irregular earners: income volatility and cash-flow stress seen in the bank
 * (swinging monthly pay, negative balances, cash advances, spending above income) drive
 * default; the credit file matters less. Few lenders, who read this risk poorly and price it
 * with wide margins and noise; borrowers need the money and are less rate-sensitive.
 */
import type { MarketShape } from './market-shape.js';

export const VOLATILITY_SHAPE: MarketShape = {
  name: 'volatility',
  description: 'income volatility and cash-flow stress drive default; few lenders, wide noisy prices',
  mainDriver: { feature: 'bank_income_volatility', defaultsRiseWith: 'higher' },
  repayment: {
    intercept: 2,
    creditScore: 0.004,
    creditUtilization: -0.5,
    hardInquiries: -0.05,
    derogatoryMarks: -0.15,
    completedLoans: 0.1,
    paymentToIncome: -2,
    cashFlow: 1.2,
    negativeBalances: -0.25,
    bankFeesShare: -0.06,
    cashAdvanceShare: -0.08,
    incomeVolatility: -10,
    noBankData: -0.6,
    noiseSd: 0.6,
  },
  population: { loanSizeFactor: 1, irregularIncomeShare: 0.4, irregularIncomeSd: 0.35 },
  competitors: {
    lendersByColor: [1.5, 1.2, 0.9, 0.8, 0.8],
    estimateErrorSd: 1,
    readsHiddenRisk: 0,
    base: 0.09,
    perDefault: 1.5,
    noiseSd: 0.05,
    cancelShare: 0.05,
  },
  borrowers: { kind: 'take-up-curve', midpoint: 0.75, steepness: 4 },
};
