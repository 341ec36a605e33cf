// Marketplace 2.9: banking data aggregation. `data_aggregation` is the raw core-banking response
// (its Memo text may hold personal data: never log it); `agg_90` holds the 90-day aggregates.
import { z } from 'zod';
import { decimalText, optionalNumber, timestampText } from './common.js';

/** Spending categories of agg_90, as `<cat>_spending_last90` and `<cat>_spending_percentage_from_total`. */
export const SPENDING_CATEGORIES = [
  'misc',
  'entertainment',
  'lifestyle',
  'education',
  'bank_fees',
  'donations',
  'goods_and_merch',
  'home_expense',
  'services',
  'utilities',
  'credit_payment',
  'transportation',
  'food',
] as const;
export type SpendingCategory = (typeof SPENDING_CATEGORIES)[number];

/**
 * The agg_90 field holding the 90-day amount of a category. The service names transportation's
 * `transportation_spending_last_90` (an underscore before 90); every other is `<cat>_spending_last90`.
 */
export function spendingAmountField(category: SpendingCategory): string {
  return category === 'transportation' ? 'transportation_spending_last_90' : `${category}_spending_last90`;
}

/** The agg_90 field holding a category's share of total spending, in percent. */
export function spendingShareField(category: SpendingCategory): string {
  return `${category}_spending_percentage_from_total`;
}

const agg90Shape: Record<string, typeof optionalNumber> = {
  avg_credit: optionalNumber,
  avg_debit: optionalNumber,
  credit_30: optionalNumber,
  debit_30: optionalNumber,
  credit_60: optionalNumber,
  debit_60: optionalNumber,
  credit_90: optionalNumber,
  debit_90: optionalNumber,
  total_credit: optionalNumber,
  total_debit: optionalNumber,
  // The cash advance subcategory is the second naming exception.
  cash_advance_last90: optionalNumber,
  cash_advance_percentage_from_total: optionalNumber,
};
for (const category of SPENDING_CATEGORIES) {
  agg90Shape[spendingAmountField(category)] = optionalNumber;
  agg90Shape[spendingShareField(category)] = optionalNumber;
}

export const agg90Schema = z.looseObject({
  ...agg90Shape,
  negative_balance_count: z.number().int().nullish(),
});
/** The 90-day aggregates; every field may be absent (absent is not zero). */
export type Agg90 = z.infer<typeof agg90Schema>;

export const bankTransactionSchema = z.looseObject({
  Memo: z.string().nullish(),
  TrnID: z.number().int(),
  CurAmt: z.looseObject({ Amt: z.number(), CurCode: z.string() }),
  TrnType: z.string(),
  Category: z.string().nullish(),
  SubCategory: z.string().nullish(),
  PostedDt: z.string(),
  CreatedOnDt: z.string().optional(),
});

export const dataAggregationSchema = z.looseObject({
  Status: z.looseObject({ Severity: z.string(), StatusCode: z.number().int(), StatusDesc: z.string() }).optional(),
  DepAcctTrns: z
    .looseObject({
      FIAcctId: z.looseObject({ AcctId: z.number().int(), AcctType: z.string(), ExtAcctType: z.string().optional() }).optional(),
      BankAcctTrnRec: z.array(bankTransactionSchema),
      SelectionCriterion: z.looseObject({ SelRangeDt: z.looseObject({ StartDt: z.string(), EndDt: z.string() }) }).optional(),
    })
    .optional(),
});

export const bankingDataSchema = z.looseObject({
  created: timestampText,
  borrower_bank_name_at_loan_request: z.string().nullish(),
  borrower_bank_balance: decimalText.nullish(),
  data_aggregation: dataAggregationSchema.nullish(),
  agg_90: agg90Schema,
});
export type BankingData = z.infer<typeof bankingDataSchema>;
