// Marketplace 2.2 (loan request) and 2.3 (borrower). Unknown fields are kept (looseObject) so
// recordings hold exactly what the service sent, and a new field never breaks intake.
import { z } from 'zod';
import { dateText, decimalText, id, optionalNumber, riskLevel, timestampText } from './common.js';

export const borrowerSchema = z.looseObject({
  id,
  avatar: z.number().int().optional(),
  initial: z.string().optional(),
  svc_score: z.number().int().nullish(),
  /** A range text such as "650-700"; see engine features for how it is read. */
  credit_score: z.string().nullish(),
  svc_color: riskLevel,
  hard_inquiries: z.number().int().nullish(),
  deregatory_mark: z.number().int().nullish(),
  total_accounts: z.number().int().nullish(),
  credit_utilization: optionalNumber,
  annual_income: z.number().int().nullish(),
  payment_history: z.number().int().nullish(),
  completed_loans_count: z.number().int().nullish(),
});
export type Borrower = z.infer<typeof borrowerSchema>;

export const sumValuesItemSchema = z.looseObject({ CREDIT: z.number(), DEBIT: z.number() });

export const borrowerDataAggsSchema = z.looseObject({
  avg_credit: optionalNumber,
  avg_debit: optionalNumber,
  sum_values: z.array(sumValuesItemSchema).optional(),
});

export const highlightSchema = z.looseObject({
  status: z.number().int(),
  title: z.string(),
  message: z.string(),
});

export const loanRequestSchema = z.looseObject({
  id,
  borrower: borrowerSchema,
  borrower_card_color: riskLevel,
  loan_amount: decimalText,
  loan_terms: z.number().int().positive(),
  total_amount: decimalText,
  total_fees: decimalText,
  fee_legislative: decimalText.optional(),
  fee_extra: decimalText.optional(),
  fee_svc: decimalText.optional(),
  created: timestampText,
  fav_loan_request_id: id.nullish(),
  svc_prediction_purchased: z.boolean().optional(),
  count_views: z.number().int().optional(),
  census_tract_geo_id: z.string().nullish(),
  max_interest_rate: z.number(),
  borrower_data_aggs: borrowerDataAggsSchema.nullish(),
  crypto_currency: z.string().optional(),
  crypto_amount: decimalText.optional(),
  crypto_interest_rate: z.number().optional(),
  crypto_logo: z.string().optional(),
  crypto_name: z.string().optional(),
  crypto_market_value: decimalText.optional(),
  highlight: highlightSchema.nullish(),
});
export type LoanRequest = z.infer<typeof loanRequestSchema>;

/** Marketplace 2.8: an item of a borrower's completed-loan history. */
export const borrowerLoanHistoryItemSchema = z.looseObject({
  lender: z.looseObject({ initial: z.string(), avatar: z.number().int() }).optional(),
  borrower: z.looseObject({ initial: z.string(), avatar: z.number().int() }).optional(),
  borrower_card_color: riskLevel,
  loan_amount: decimalText,
  payment_terms: z.number().int(),
  interest_rate: decimalText,
});
export type BorrowerLoanHistoryItem = z.infer<typeof borrowerLoanHistoryItemSchema>;

// Re-exported so callers can validate dates the same way.
export { dateText };
