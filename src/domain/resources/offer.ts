// Marketplace 2.4: an offer, as make_offer returns it. The status vocabulary is open-ended (pending,
// accepted, rejected and expired seen so far), so it stays a string; the embedded lender and loan
// request keep whatever fields they carry.
import { z } from 'zod';
import { id, timestampText } from './common.js';

export const offerSchema = z.looseObject({
  id,
  offered_interest: z.number(),
  offer_status: z.string(),
  lender: z.looseObject({}).nullish(),
  loan_request: z.looseObject({ id: id.optional() }).nullish(),
  monthly_payment: z.number().nullish(),
  loan_gain: z.number().nullish(),
  created: timestampText.optional(),
  offer_status_changed: timestampText.nullish(),
  processed_on_processor: z.boolean().optional(),
  automate_fund: z.boolean().optional(),
});
export type Offer = z.infer<typeof offerSchema>;

/** The 201 answer of the fund endpoint (marketplace 4.3). */
export const fundStartedSchema = z.looseObject({ message: z.string() });
export type FundStarted = z.infer<typeof fundStartedSchema>;
