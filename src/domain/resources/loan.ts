// Marketplace 2.5 (loan) and 2.6 (loan payment). Loans carry float dollar amounts; payments carry
// decimal text or floats. Status texts stay strings: the vocabularies are open-ended.
import { z } from 'zod';
import { dateText, decimalTextOrNumber, dollarsNumber, id, optionalNumber, riskLevel, timestampText } from './common.js';

/** A float USD amount the service may leave out or send as null. */
const optionalDollars = dollarsNumber.nullish();

export const LOAN_STATUSES = ['current', 'completed', 'collection', 'default'] as const;
export type LoanListStatus = (typeof LOAN_STATUSES)[number];

export const loanSchema = z.looseObject({
  id,
  borrower_card_color: riskLevel.optional(),
  loan_amount: dollarsNumber,
  payment_terms: z.number().int().optional(),
  monthly_payment_amount: optionalDollars,
  loan_return: optionalDollars,
  is_approved: z.boolean().optional(),
  loan_paid_off: z.boolean().optional(),
  loan_balance: optionalDollars,
  interest_rate: z.number(),
  lender: z.looseObject({}).nullish(),
  next_payment_date: timestampText.nullish(),
  borrower: z.looseObject({}).nullish(),
  status: z.string(),
  loan_due_amount: optionalDollars,
  created_date: timestampText.optional(),
  original_debt: optionalDollars,
  collected_amount: optionalDollars,
  remaining_debt: optionalDollars,
  collection_fee: optionalDollars,
  collected_percentage: optionalNumber,
  net_collected: optionalDollars,
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
  late_payment_fees_amount: optionalDollars,
  created: timestampText.optional(),
  modified: timestampText.optional(),
  is_late_payment: z.boolean().optional(),
  processed_on_processor: z.boolean().optional(),
  delayed_days_count: z.number().int().nullish(),
  pay_later_fees: optionalDollars,
});
export type LoanPayment = z.infer<typeof loanPaymentSchema>;
