// Marketplace 2.7: transfer history, grouped by date. Statuses and types are open-ended strings
// (types seen: Add Money, Withdrawal, Fund Loans, Monthly Payments, Collection, Lender
// Subscription, Default Crypto, Liquidate Crypto, Reward, Refund).
import { z } from 'zod';
import { dateText, decimalText, referenceId } from './common.js';

export const transferSchema = z.looseObject({
  transfer_status: z.string(),
  transfer_type: z.string(),
  /** Signed decimal text; outgoing money is negative. */
  transfer_amount: decimalText,
  transfer_source_dest: z.string().nullish(),
  loan_request_id: referenceId.nullish(),
  loan_id: referenceId.nullish(),
  borrower_id: referenceId.nullish(),
});
export type Transfer = z.infer<typeof transferSchema>;

export const transferDayGroupSchema = z.looseObject({
  date: dateText,
  transactions: z.array(transferSchema),
});
export type TransferDayGroup = z.infer<typeof transferDayGroupSchema>;
