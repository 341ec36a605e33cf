/** Features of the borrower's completed-loan history (marketplace 2.8); absent when it was not fetched. */
import { parseCents } from '../../domain/index.js';
import { numberFeature, ratio, type FeatureDefinition } from './feature-definition.js';
import type { FeatureSource } from './feature-source.js';

function amounts(source: FeatureSource): number[] | null {
  return source.history ? source.history.map((item) => parseCents(item.loan_amount) / 100) : null;
}

export const HISTORY_FEATURES: FeatureDefinition[] = [
  numberFeature('history_loans', 'history', 'count', 'completed loans in the fetched history', (s) => s.history?.length),
  numberFeature('history_total_borrowed', 'history', 'USD', 'sum of the completed loans', (s) =>
    amounts(s)?.reduce((sum, amount) => sum + amount, 0),
  ),
  numberFeature('history_largest_loan', 'history', 'USD', 'largest completed loan (absent with no history)', (s) => {
    const list = amounts(s);
    return list && list.length > 0 ? Math.max(...list) : null;
  }),
  numberFeature('history_avg_interest_rate', 'history', 'annual rate', 'average rate of the completed loans', (s) => {
    if (!s.history || s.history.length === 0) return null;
    return s.history.reduce((sum, item) => sum + Number(item.interest_rate), 0) / s.history.length;
  }),
  numberFeature('loan_to_largest_previous', 'history', 'ratio', 'loan amount divided by the largest completed loan', (s) => {
    const list = amounts(s);
    return list && list.length > 0 ? ratio(s.loanAmountCents / 100, Math.max(...list)) : null;
  }),
];
