// Building blocks shared by the resource schemas of spec part 2.
import { z } from 'zod';
import { isDecimalText } from '../money.js';

/** A USD amount sent as decimal text ("1250.00"); turned into cents by the money module. */
export const decimalText = z
  .string()
  .refine((text) => isDecimalText(text), { message: 'expected a decimal amount such as "1250.00"' });

/** An amount the service sends either as decimal text or as a float (payments do both). */
export const decimalTextOrNumber = z.union([decimalText, z.number()]);

/** An integer identifier. */
export const id = z.number().int();

/** A risk level (`svc_color`, `borrower_card_color`): 0 low, 1 medium, 2 high, 3 friends, 4 crypto. */
export const riskLevel = z.number().int().min(0).max(4);

/** Names of the risk levels, indexed by their integer. */
export const RISK_LEVEL_NAMES = ['low', 'medium', 'high', 'friends', 'crypto'] as const;

/** A timestamp text; the service uses ISO 8601 and `YYYY-MM-DD HH:MM:SS+00:00` forms. */
export const timestampText = z.string().min(1);

/** A calendar date `YYYY-MM-DD`. */
export const dateText = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date YYYY-MM-DD');

/** A number the service may leave out or send as null; absent stays absent (never zero). */
export const optionalNumber = z.number().nullish();

/** The bounds of every interest rate the spec names (offered interest, loan interest; part 8). */
export const MIN_RATE = 0.03;
export const MAX_RATE = 2.0;
