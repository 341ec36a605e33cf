// Building blocks shared by the resource schemas of marketplace part 2.
import { z } from 'zod';
import { centsOf, isDecimalText, isSafeDollars } from '../money.js';
import { MAX_RISK_LEVEL } from '../risk-levels.js';

/**
 * A USD amount sent as decimal text ("1250.00"); turned into cents by the money module. Text that
 * is not a plain decimal ("1e9", "NaN", "") or whose cents are not a safe integer is an issue at
 * this field, so nothing later has to parse an amount that cannot be parsed.
 */
export const decimalText = z.string().superRefine((text, ctx) => {
  if (centsOf(text) !== undefined) return;
  const message = isDecimalText(text)
    ? `amount out of range (got ${JSON.stringify(text)})`
    : `expected a decimal amount such as "1250.00" (got ${JSON.stringify(text)})`;
  ctx.addIssue({ code: 'custom', message });
});

/** A USD amount sent as a float (loans), whose cents are a safe integer. */
export const dollarsNumber = z
  .number()
  .refine((value) => isSafeDollars(value), { error: (issue) => `amount out of range (got ${String(issue.input)})` });

/** An amount the service sends either as decimal text or as a float (payments do both). */
export const decimalTextOrNumber = z.union([decimalText, dollarsNumber]);

/**
 * A resource identifier: a positive safe integer. The service's ids are database keys (1, 2, ...);
 * 0, a negative number or one past 2^53 cannot name a resource, and every call lendbot would make
 * about it is refused before it is sent, so such an item is that item's issue at the edge, never
 * a failure found later in the middle of a poll.
 */
export const id = z
  .number()
  .int()
  .refine((value) => value > 0, { error: (issue) => `an id is a positive whole number (got ${String(issue.input)})` });

/**
 * An integer that refers to another resource inside a transfer. Looser than `id` on purpose: a
 * transfer left out for an odd reference would make the balance wrong by its amount (see the
 * service's plausibility rules), and nothing is ever asked about these references.
 */
export const referenceId = z.number().int();

/** A risk level (`svc_color`, `borrower_card_color`): 0 low, 1 medium, 2 high, 3 friends, 4 crypto. */
export const riskLevel = z.number().int().min(0).max(MAX_RISK_LEVEL);

/** A timestamp text; the service uses ISO 8601 and `YYYY-MM-DD HH:MM:SS+00:00` forms. */
export const timestampText = z.string().min(1);

/** A calendar date `YYYY-MM-DD`. */
export const dateText = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date YYYY-MM-DD');

/** A number the service may leave out or send as null; absent stays absent (never zero). */
export const optionalNumber = z.number().nullish();

/** The bounds of every interest rate the spec names (offered interest, loan interest; part 8). */
export const MIN_RATE = 0.03;
export const MAX_RATE = 2.0;
