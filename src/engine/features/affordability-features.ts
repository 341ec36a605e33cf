/**
 * Affordability: the monthly payment against monthly income. The payment is computed at the
 * request's max_interest_rate (the most it can cost the borrower) on the total amount (loan
 * plus fees) over loan_terms months; see loan-math.ts. Pricing can also cap the payment at the
 * rate actually offered (pricing.max_payment_to_income).
 */
import { paymentFactor } from '../../math/index.js';
import { numberFeature, ratio, type FeatureDefinition } from './feature-definition.js';
import type { FeatureSource } from './feature-source.js';
import { monthly } from './banking-features.js';

/** The monthly payment at the max rate, in USD. */
function paymentAtMax(source: FeatureSource): number {
  return (source.totalAmountCents / 100) * paymentFactor(source.request.max_interest_rate, source.request.loan_terms);
}

function statedMonthlyIncome(source: FeatureSource): number | null {
  const annual = source.borrower.annual_income;
  return typeof annual === 'number' ? annual / 12 : null;
}

export const AFFORDABILITY_FEATURES: FeatureDefinition[] = [
  numberFeature(
    'monthly_payment_at_max_rate',
    'affordability',
    'USD/month',
    'monthly payment on the total amount at max_interest_rate',
    paymentAtMax,
  ),
  numberFeature('payment_to_income_at_max_rate', 'affordability', 'ratio', 'that payment divided by the stated monthly income', (s) =>
    ratio(paymentAtMax(s), statedMonthlyIncome(s)),
  ),
  numberFeature('loan_to_income', 'affordability', 'ratio', 'loan amount divided by the stated annual income', (s) =>
    ratio(s.loanAmountCents / 100, s.borrower.annual_income),
  ),
  numberFeature(
    'payment_to_bank_income_at_max_rate',
    'banking',
    'ratio',
    'payment at the max rate divided by the monthly income seen in the bank',
    (s) => ratio(paymentAtMax(s), monthly(s, 'credit')),
  ),
  numberFeature(
    'payment_to_net_flow_at_max_rate',
    'banking',
    'ratio',
    'payment at the max rate divided by monthly income minus spending (absent when that is not positive)',
    (s) => {
      const income = monthly(s, 'credit');
      const spending = monthly(s, 'debit');
      if (income === null || spending === null || income - spending <= 0) return null;
      return paymentAtMax(s) / (income - spending);
    },
  ),
];
