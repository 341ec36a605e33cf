// Spec 2.5 (loan) and 2.6 (loan payment). Loans carry float dollar amounts; payments carry
// decimal text or floats. Status texts stay strings: the vocabularies are open-ended.
import { z } from 'zod';
import { dateText, decimalTextOrNumber, id, optionalNumber, riskLevel, timestampText } from './common.js';

export const LOAN_STATUSES = ['current', 'completed', 'collection', 'default'] as const;
export type LoanListStatus = (typeof LOAN_STATUSES)[number];

export const loanSchema = z.looseObject({
  id,
  borrower_card_color: riskLevel.optional(),
  loan_amount: z.number(),
  payment_terms: z.number().int().optional(),
  monthly_payment_amount: optionalNumber,
  loan_return: optionalNumber,
  is_approved: z.boolean().optional(),
  loan_paid_off: z.boolean().optional(),
  loan_balance: optionalNumber,
  interest_rate: z.number(),
  lender: z.looseObject({}).nullish(),
  next_payment_date: timestampText.nullish(),
  borrower: z.looseObject({}).nullish(),
  status: z.string(),
  loan_due_amount: optionalNumber,
  created_date: timestampText.optional(),
  original_debt: optionalNumber,
  collected_amount: optionalNumber,
  remaining_debt: optionalNumber,
  collection_fee: optionalNumber,
  collected_percentage: optionalNumber,
  net_collected: optionalNumber,
  loan_request_id: id.optional(),
});
export type Loan = z.infer<typeof loanSchema>;

export const loanPaymentSchema = z.looseObject({
  id,
  loan: id,
  payment_amount: decimalTextOrNumber,
  payment_due_date: dateText,
  payment_status: z.string(),
  payment_status_changed: timestampText.nullish(),
  late_payment_fees_amount: z.number().nullish(),
  created: timestampText.optional(),
  modified: timestampText.optional(),
  is_late_payment: z.boolean().optional(),
  processed_on_processor: z.boolean().optional(),
  delayed_days_count: z.number().int().nullish(),
  pay_later_fees: z.number().nullish(),
});
export type LoanPayment = z.infer<typeof loanPaymentSchema>;
