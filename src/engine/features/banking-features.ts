/**
 * Features of the 90-day banking aggregates (marketplace 2.9 `agg_90`): income and spending per 30-day
 * window, their trend and volatility, each category's share, cash advances, negative balances
 * and bank fees. All absent until banking data is bought, and each absent when its field is.
 * Window 30 is the most recent month, 90 the oldest (days 60-90 after the request's creation
 * going back).
 */
import { parseCents, SPENDING_CATEGORIES, spendingAmountField, spendingShareField, type Agg90 } from '../../domain/index.js';
import { numberFeature, present, ratio, type FeatureDefinition } from './feature-definition.js';
import type { FeatureSource } from './feature-source.js';

type Flow = 'credit' | 'debit';

function field(agg: Agg90 | undefined, name: string): number | null {
  return agg ? present(agg[name] as number | null | undefined) : null;
}

function windows(source: FeatureSource, flow: Flow): [number, number, number] | null {
  const recent = field(source.agg90, `${flow}_30`);
  const middle = field(source.agg90, `${flow}_60`);
  const oldest = field(source.agg90, `${flow}_90`);
  return recent === null || middle === null || oldest === null ? null : [recent, middle, oldest];
}

/** The 90-day total, falling back to the sum of the three windows when the total is absent. */
function total90(source: FeatureSource, flow: Flow): number | null {
  const total = field(source.agg90, `total_${flow}`);
  if (total !== null) return total;
  const parts = windows(source, flow);
  return parts ? parts[0] + parts[1] + parts[2] : null;
}

/** The monthly average over the 90 days (a third of the total). */
export function monthly(source: FeatureSource, flow: Flow): number | null {
  const total = total90(source, flow);
  return total === null ? null : total / 3;
}

/** (most recent month - oldest month) / monthly mean: positive when the flow is rising. */
function trend(source: FeatureSource, flow: Flow): number | null {
  const parts = windows(source, flow);
  if (!parts) return null;
  return ratio(parts[0] - parts[2], (parts[0] + parts[1] + parts[2]) / 3);
}

/** Coefficient of variation of the three months: standard deviation / mean. */
function volatility(source: FeatureSource, flow: Flow): number | null {
  const parts = windows(source, flow);
  if (!parts) return null;
  const mean = (parts[0] + parts[1] + parts[2]) / 3;
  const variance = parts.reduce((sum, value) => sum + (value - mean) ** 2, 0) / 3;
  return ratio(Math.sqrt(variance), mean);
}

const CATEGORY_FEATURES: FeatureDefinition[] = SPENDING_CATEGORIES.flatMap((category) => [
  numberFeature(`spend_${category}_90`, 'banking', 'USD', `spent on ${category.replaceAll('_', ' ')} in 90 days`, (s) =>
    field(s.agg90, spendingAmountField(category)),
  ),
  numberFeature(`spend_${category}_share`, 'banking', 'percent', `${category.replaceAll('_', ' ')} share of total spending`, (s) =>
    field(s.agg90, spendingShareField(category)),
  ),
]);

export const BANKING_FEATURES: FeatureDefinition[] = [
  numberFeature('bank_avg_credit', 'banking', 'USD', 'agg_90.avg_credit: average income, last 90 days', (s) =>
    field(s.agg90, 'avg_credit'),
  ),
  numberFeature('bank_avg_debit', 'banking', 'USD', 'agg_90.avg_debit: average spending, last 90 days', (s) => field(s.agg90, 'avg_debit')),
  numberFeature('bank_credit_30', 'banking', 'USD', 'income, last 30 days', (s) => field(s.agg90, 'credit_30')),
  numberFeature('bank_credit_60', 'banking', 'USD', 'income, days 30-60', (s) => field(s.agg90, 'credit_60')),
  numberFeature('bank_credit_90', 'banking', 'USD', 'income, days 60-90', (s) => field(s.agg90, 'credit_90')),
  numberFeature('bank_debit_30', 'banking', 'USD', 'spending, last 30 days', (s) => field(s.agg90, 'debit_30')),
  numberFeature('bank_debit_60', 'banking', 'USD', 'spending, days 30-60', (s) => field(s.agg90, 'debit_60')),
  numberFeature('bank_debit_90', 'banking', 'USD', 'spending, days 60-90', (s) => field(s.agg90, 'debit_90')),
  numberFeature('bank_total_credit', 'banking', 'USD', 'income over 90 days (sum of the windows when the total is absent)', (s) =>
    total90(s, 'credit'),
  ),
  numberFeature('bank_total_debit', 'banking', 'USD', 'spending over 90 days', (s) => total90(s, 'debit')),
  numberFeature('bank_monthly_income', 'banking', 'USD/month', 'a third of the 90-day income', (s) => monthly(s, 'credit')),
  numberFeature('bank_monthly_spending', 'banking', 'USD/month', 'a third of the 90-day spending', (s) => monthly(s, 'debit')),
  numberFeature('bank_monthly_net_flow', 'banking', 'USD/month', 'monthly income minus monthly spending', (s) => {
    const income = monthly(s, 'credit');
    const spending = monthly(s, 'debit');
    return income === null || spending === null ? null : income - spending;
  }),
  numberFeature('bank_spending_to_income', 'banking', 'ratio', '90-day spending divided by 90-day income', (s) =>
    ratio(total90(s, 'debit'), total90(s, 'credit')),
  ),
  numberFeature('bank_income_trend', 'banking', 'ratio', '(last 30 days - days 60-90) income / monthly mean; > 0 rising', (s) =>
    trend(s, 'credit'),
  ),
  numberFeature('bank_spending_trend', 'banking', 'ratio', '(last 30 days - days 60-90) spending / monthly mean; > 0 rising', (s) =>
    trend(s, 'debit'),
  ),
  numberFeature('bank_income_volatility', 'banking', 'ratio', 'standard deviation / mean of the three monthly incomes', (s) =>
    volatility(s, 'credit'),
  ),
  numberFeature('bank_spending_volatility', 'banking', 'ratio', 'standard deviation / mean of the three monthly spendings', (s) =>
    volatility(s, 'debit'),
  ),
  numberFeature('bank_balance', 'banking', 'USD', 'borrower_bank_balance at the loan request', (s) => {
    const balance = s.bankingData?.borrower_bank_balance;
    return typeof balance === 'string' ? parseCents(balance) / 100 : null;
  }),
  numberFeature('negative_balance_count', 'banking', 'count', 'times the balance went negative in 90 days', (s) =>
    field(s.agg90, 'negative_balance_count'),
  ),
  numberFeature('cash_advance_90', 'banking', 'USD', 'cash advances in 90 days', (s) => field(s.agg90, 'cash_advance_last90')),
  numberFeature('cash_advance_share', 'banking', 'percent', 'cash advances as a share of total spending', (s) =>
    field(s.agg90, 'cash_advance_percentage_from_total'),
  ),
  ...CATEGORY_FEATURES,
];
