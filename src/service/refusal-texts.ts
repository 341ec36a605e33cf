/**
 * The service's refusal texts lendbot recognises, each with a stable code. The spec names the
 * refusals (4.2 rules 2-9, 4.3 preconditions) but shows almost none of their texts, so lendbot
 * never compares a text outright: the client matches every error text against this table once
 * (`ServiceError.refusal`) and the rest of lendbot reads the code. A deployment whose service
 * words a refusal differently adds its text in config (`service.refusal_texts`), checked before
 * these defaults. The table is documented in docs/service-client.md ("Refusal texts").
 */
import { z } from 'zod';

/** The calls a refusal says the service did not carry out (marketplace 4.2 make_offer, 4.3 fund). */
export type RefusedCall = 'offer' | 'fund';

/**
 * Every refusal code, with the calls it refuses: a make_offer or fund answered with one of these
 * did nothing, so the money held for it may be released (src/daemon/clear-refusal.ts). A code
 * that refuses no call says something else (`offer_exists`: an offer exists).
 */
const REFUSAL_CATALOGUE = {
  /** 4.2 rule 7: the investor already made an offer on this request (ours, before a crash). */
  offer_exists: [],
  /** 4.2 rule 2: the investor is currently borrowing. */
  investor_borrowing: ['offer'],
  /** 4.2 rule 9: the investor has no verified bank account. */
  no_verified_bank: ['offer'],
  /** 4.2 rule 3: offered interest above the request's max_interest_rate. */
  rate_above_max: ['offer'],
  /** 4.2 rule 4 and 4.3 precondition 5: the balance does not cover the loan. */
  insufficient_balance: ['offer', 'fund'],
  /** 4.2 rule 5. */
  request_canceled: ['offer'],
  /** 4.2 rule 6. */
  request_signed: ['offer'],
  /** 4.2 rule 8: the borrower accepted another offer. */
  accepted_other_offer: ['offer'],
  /** The request no longer takes offers, for a reason the text does not say. */
  request_closed: ['offer'],
  /** 4.3 precondition 1: funding was already started. */
  fund_already_started: ['fund'],
  /** 4.3 precondition 2: the borrower has not accepted the offer (yet). */
  offer_not_accepted: ['fund'],
  /** 4.3 precondition 3: the loan request is not in Offered status. */
  request_not_offered: ['fund'],
  /** 4.3 precondition 4: the borrower has no primary funding resource. */
  no_funding_resource: ['fund'],
  /** A page past the end of a list (Django REST framework's "Invalid page."). */
  invalid_page: [],
} as const satisfies Record<string, readonly RefusedCall[]>;

export type RefusalCode = keyof typeof REFUSAL_CATALOGUE;

const REFUSAL_CODES = Object.keys(REFUSAL_CATALOGUE) as [RefusalCode, ...RefusalCode[]];

/** Whether a refusal with this code says the service did not carry out `call`. */
export function refusesCall(code: RefusalCode, call: RefusedCall): boolean {
  return (REFUSAL_CATALOGUE[code] as readonly RefusedCall[]).includes(call);
}

/** One recognised text: a case-insensitive substring, or a regex written `/.../flags`. */
export interface RefusalTextRule {
  pattern: string;
  code: RefusalCode;
}

/**
 * What lendbot recognises without configuration: the sandbox's texts (src/sandbox/offer-rules.ts)
 * and plausible wordings of the same refusals. First match wins, so narrower texts come first.
 */
const DEFAULT_REFUSAL_TEXTS: readonly RefusalTextRule[] = [
  { pattern: 'already made an offer', code: 'offer_exists' },
  { pattern: '/already (?:placed|submitted) an offer/', code: 'offer_exists' },
  { pattern: 'offer already exists', code: 'offer_exists' },
  { pattern: 'borrower can not offer', code: 'investor_borrowing' },
  { pattern: 'borrower cannot offer', code: 'investor_borrowing' },
  { pattern: 'currently borrowing', code: 'investor_borrowing' },
  { pattern: 'verified bank account', code: 'no_verified_bank' },
  { pattern: '/bank account (?:is )?not verified/', code: 'no_verified_bank' },
  { pattern: 'maximum interest rate', code: 'rate_above_max' },
  { pattern: '/balance (?:is not|isn.t) sufficient/', code: 'insufficient_balance' },
  { pattern: 'insufficient balance', code: 'insufficient_balance' },
  { pattern: 'does not exceed the loan total amount', code: 'insufficient_balance' },
  { pattern: '/has been cancell?ed/', code: 'request_canceled' },
  { pattern: 'has already been signed', code: 'request_signed' },
  { pattern: 'accepted another offer', code: 'accepted_other_offer' },
  { pattern: 'no longer open', code: 'request_closed' },
  { pattern: 'funding for this offer has already been initiated', code: 'fund_already_started' },
  { pattern: 'has not been accepted', code: 'offer_not_accepted' },
  { pattern: 'not in offered status', code: 'request_not_offered' },
  { pattern: 'no primary funding resource', code: 'no_funding_resource' },
  { pattern: 'invalid page', code: 'invalid_page' },
];

/** A `/body/flags` pattern's parts, or undefined for a plain substring. */
function regexParts(pattern: string): { body: string; flags: string } | undefined {
  const match = /^\/(.+)\/([a-z]*)$/s.exec(pattern);
  return match ? { body: match[1] as string, flags: match[2] as string } : undefined;
}

/** Why `pattern` cannot be used (a regex that does not compile), or null when it can. */
function refusalPatternProblem(pattern: string): string | null {
  const parts = regexParts(pattern);
  if (!parts) return null;
  try {
    new RegExp(parts.body, parts.flags.includes('i') ? parts.flags : `${parts.flags}i`);
    return null;
  } catch (error) {
    return `not a valid regex: ${error instanceof Error ? error.message : String(error)}`;
  }
}

type TextTest = (text: string) => boolean;

function compilePattern(pattern: string): TextTest {
  const parts = regexParts(pattern);
  if (parts) {
    // Matching is case-insensitive whatever the flags say; `g` would make test() stateful.
    const flags = `${parts.flags.replace(/[gi]/g, '')}i`;
    const regex = new RegExp(parts.body, flags);
    return (text) => regex.test(text);
  }
  const needle = pattern.toLowerCase();
  return (text) => text.toLowerCase().includes(needle);
}

/** The table in use: the configured texts first, then the defaults. */
export class RefusalTexts {
  private readonly rules: ReadonlyArray<{ test: TextTest; code: RefusalCode }>;

  /** Throws RangeError on a pattern that does not compile (config validation reports it first). */
  constructor(extra: readonly RefusalTextRule[] = []) {
    this.rules = [...extra, ...DEFAULT_REFUSAL_TEXTS].map((rule) => {
      const problem = refusalPatternProblem(rule.pattern);
      if (problem !== null) throw new RangeError(`refusal text ${JSON.stringify(rule.pattern)}: ${problem}`);
      return { test: compilePattern(rule.pattern), code: rule.code };
    });
  }

  /** The code of the first rule `text` matches, or undefined. */
  codeOf(text: string | undefined): RefusalCode | undefined {
    if (text === undefined || text === '') return undefined;
    return this.rules.find((rule) => rule.test(text))?.code;
  }
}

/** The defaults alone, for clients built without configuration. */
export const DEFAULT_REFUSALS = new RefusalTexts();

/** `service.refusal_texts` of the config file. */
export const refusalTextsSchema = z
  .array(
    z.strictObject({
      pattern: z
        .string()
        .min(1)
        .superRefine((pattern, context) => {
          const problem = refusalPatternProblem(pattern);
          if (problem !== null) context.addIssue({ code: 'custom', message: problem });
        })
        .describe('a part of the service\'s text (case-insensitive), or a regex written "/.../"'),
      code: z.enum(REFUSAL_CODES).describe('what the text means (docs/service-client.md, "Refusal texts")'),
    }),
  )
  .default([])
  .describe('refusal texts of the service beyond the built-in table, checked first');
