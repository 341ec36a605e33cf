/**
 * What an operator pre-approves on purpose for one agent's token (`ops.tokens[].allowance`): offers
 * up to an amount each, up to a total per UTC day, on some risk levels. An agent's offer within
 * it is placed at once (the guard still applies); beyond it, or with no allowance (the default,
 * and always for the `operator` and `sandbox` callers), it becomes a proposal a person approves.
 *
 * The day is a UTC day of real time: an allowance is a person's "at most this much a day without
 * me", also in the sandbox, whose market clock runs a day a second.
 */
import { z } from 'zod';
import { dollarsFromCents as dollars } from '../log/plain-figures.js';
import { amountToCents, decimalText, RISK_LEVEL_NAMES, type Cents } from '../domain/index.js';

export interface OfferAllowance {
  maxPerOfferCents: Cents;
  maxPerDayCents: Cents;
  /** Sorted, without repeats. */
  riskLevels: readonly number[];
}

/** A USD amount (a YAML number or decimal text) in cents; bounded, so no amount fails the conversion. */
const usd = z
  .union([z.number().min(0).max(1_000_000_000), decimalText], {
    error: (issue) =>
      issue.input === undefined ? 'required: a USD amount, e.g. 100' : 'a USD amount: a number from 0 or a decimal text such as "100.00"',
  })
  .transform((amount) => amountToCents(amount))
  .pipe(z.number().int().nonnegative({ message: 'must not be negative' }));

export const offerAllowanceSchema = z
  .strictObject({
    max_per_offer: usd.describe("USD: the largest request total (an offer's amount) placed without a person"),
    max_per_day: usd.describe('USD: the total placed without a person per UTC day (real time)'),
    risk_levels: z
      .array(z.number().int().min(0).max(4))
      .min(1, 'name at least one risk level (0 low, 1 medium, 2 high, 3 friends, 4 crypto-backed)')
      .describe('the risk levels offers may be placed on without a person'),
  })
  .transform((section): OfferAllowance => ({
    maxPerOfferCents: section.max_per_offer,
    maxPerDayCents: section.max_per_day,
    riskLevels: [...new Set(section.risk_levels)].sort((a, b) => a - b),
  }));

/** What the agent connector needs to know about approvals, from the `ops:` section. */
export interface ApprovalSettings {
  /** The allowance of a token by its name; undefined: none, every offer of its holder waits for a person. */
  allowanceOf(tokenName: string): OfferAllowance | undefined;
  /** How long a proposal waits for a person (real time). */
  proposalTtlMs: number;
}

export function approvalSettings(ops: {
  tokens: ReadonlyArray<{ name: string; allowance?: OfferAllowance | undefined }>;
  proposal_expiry_minutes: number;
}): ApprovalSettings {
  const allowances = new Map<string, OfferAllowance>();
  for (const token of ops.tokens) if (token.allowance !== undefined) allowances.set(token.name, token.allowance);
  return { allowanceOf: (name) => allowances.get(name), proposalTtlMs: Math.round(ops.proposal_expiry_minutes * 60_000) };
}

export type AllowanceVerdict = { within: true; allowance: OfferAllowance } | { within: false; why: string };

/** Whether an offer fits the token's allowance, given what the day already used of it. */
export function allowanceVerdict(
  tokenName: string,
  allowance: OfferAllowance | undefined,
  offer: { amountCents: Cents; riskLevel: number },
  usedTodayCents: Cents,
): AllowanceVerdict {
  const whose = `token "${tokenName}"`;
  if (allowance === undefined) return { within: false, why: `${whose} has no allowance, so every offer it asks for waits for a person` };
  if (offer.amountCents > allowance.maxPerOfferCents) {
    return {
      within: false,
      why: `${dollars(offer.amountCents)} is above ${whose}'s allowance of ${dollars(allowance.maxPerOfferCents)} per offer`,
    };
  }
  if (!allowance.riskLevels.includes(offer.riskLevel)) {
    const levels = allowance.riskLevels.map((level) => `${level} ${RISK_LEVEL_NAMES[level] ?? ''}`.trim()).join(', ');
    return {
      within: false,
      why: `risk level ${offer.riskLevel} (${RISK_LEVEL_NAMES[offer.riskLevel] ?? 'unknown'}) is outside ${whose}'s allowance (levels ${levels})`,
    };
  }
  if (usedTodayCents + offer.amountCents > allowance.maxPerDayCents) {
    return {
      within: false,
      why: `${dollars(usedTodayCents)} used today + ${dollars(offer.amountCents)} is above ${whose}'s allowance of ${dollars(allowance.maxPerDayCents)} a day (UTC)`,
    };
  }
  return { within: true, allowance };
}
