/**
 * Features of the borrower (marketplace 2.3): scores, the credit-score range, credit file, income.
 */
import { numberFeature, type FeatureDefinition } from './feature-definition.js';
import { parseCreditScoreRange, type CreditScoreRange } from './credit-score-range.js';
import type { FeatureSource } from './feature-source.js';

function creditRange(source: FeatureSource): CreditScoreRange | null {
  return parseCreditScoreRange(source.borrower.credit_score);
}

export const BORROWER_FEATURES: FeatureDefinition[] = [
  numberFeature('svc_score', 'borrower', 'score', "the service's own score of the borrower", (s) => s.borrower.svc_score),
  numberFeature(
    'credit_score_low',
    'borrower',
    '300-850',
    'lower end of the credit score range text ("650-700" gives 650)',
    (s) => creditRange(s)?.low,
  ),
  numberFeature('credit_score_high', 'borrower', '300-850', 'upper end of the credit score range text', (s) => creditRange(s)?.high),
  numberFeature('credit_score_mid', 'borrower', '300-850', 'middle of the credit score range', (s) => {
    const range = creditRange(s);
    return range ? (range.low + range.high) / 2 : null;
  }),
  numberFeature('hard_inquiries', 'borrower', 'count', 'hard credit inquiries', (s) => s.borrower.hard_inquiries),
  numberFeature(
    'derogatory_marks',
    'borrower',
    'count',
    'derogatory marks (the service spells it deregatory_mark)',
    (s) => s.borrower.deregatory_mark,
  ),
  numberFeature('total_accounts', 'borrower', 'count', 'credit accounts on file', (s) => s.borrower.total_accounts),
  numberFeature(
    'credit_utilization',
    'borrower',
    'as sent',
    'revolving credit utilization, in the unit the service sends',
    (s) => s.borrower.credit_utilization,
  ),
  numberFeature('annual_income', 'borrower', 'USD/year', 'stated annual income', (s) => s.borrower.annual_income),
  numberFeature('monthly_income', 'borrower', 'USD/month', 'stated annual income divided by 12', (s) =>
    typeof s.borrower.annual_income === 'number' ? s.borrower.annual_income / 12 : null,
  ),
  numberFeature('payment_history', 'borrower', 'as sent', 'payment history figure of the credit file', (s) => s.borrower.payment_history),
  numberFeature(
    'completed_loans',
    'borrower',
    'count',
    'loans the borrower completed on the service',
    (s) => s.borrower.completed_loans_count,
  ),
  numberFeature(
    'borrower_risk_level',
    'borrower',
    '0-4',
    "the borrower's svc_color (same scale as risk_level)",
    (s) => s.borrower.svc_color,
  ),
];
