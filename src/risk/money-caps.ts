/**
 * The guard's money caps (open exposure, per borrower, per UTC day), each either a USD amount or
 * a share of the capital, so the shipped defaults fit a 5,000 USD account and a 500,000 USD one
 * alike (docs/risk-guard.md, "Caps as shares of the capital").
 *
 * The capital is the balance plus what is lent out (exposure beyond the reservations, whose
 * money is still in the balance): the same base as a live split's arm share. Not the free cash,
 * which falls as the bot lends, so a cap on it would shrink with every loan it allows; not the
 * equity, which needs the ledger's loss settings the pure guard does not have. Money repaid,
 * deposited or withdrawn moves it. A loan in default keeps counting at what it owes while the
 * daemon's exposure counts it (the backtest's ledger drops it at the write-off), so a share does
 * not shrink at once after a default: the protections pause on defaults instead.
 */
import { z } from 'zod';
import { amountToCents, decimalText, type Cents } from '../domain/index.js';

/** The money a snapshot shows, from which the capital is taken. */
export interface CapitalFigures {
  balanceCents: Cents;
  reservedCents: Cents;
  exposureCents: Cents;
}

/** Balance plus money lent out (exposure beyond the reservations); never below 0. */
export function capitalCents(money: CapitalFigures): Cents {
  const lent = Math.max(0, money.exposureCents - money.reservedCents);
  return Math.max(0, money.balanceCents + lent);
}

/** A USD amount, as a YAML number (250, 12.5) or decimal text ("250.00"), turned into cents. */
export const usdAmount = z
  .union([z.number(), decimalText])
  .transform((amount) => amountToCents(amount))
  .pipe(z.number().int().nonnegative({ message: 'must not be negative' }));

/** A parsed cap: cents, a share of the capital, or none. */
export type MoneyCap = { cents: Cents } | { share: number } | null;

const CAP_FORMS = 'a USD amount (10000), a share of the capital ({ share: 0.9 }) or null (no cap)';

/** The one message a bad cap gets: what the form it looks like lacks, then the three forms. */
function capError(issue: {
  input?: unknown;
  errors?: ReadonlyArray<ReadonlyArray<{ code: string; message: string; path: PropertyKey[]; keys?: string[] }>>;
}): string {
  const { input } = issue;
  // The option the value was meant as: an object is a share (a misspelt key first), anything else an amount.
  const asShare = issue.errors?.[1] ?? [];
  const misspelt = asShare.find((i) => i.code === 'unrecognized_keys');
  const meant = input !== null && typeof input === 'object' ? (misspelt ?? asShare[0]) : issue.errors?.[0]?.[0];
  let what = '';
  if (meant === misspelt && misspelt !== undefined) what = `unknown key ${(misspelt.keys ?? []).map((k) => `"${k}"`).join(', ')}; `;
  else if (meant !== undefined) what = `${meant.path.length > 0 ? `${meant.path.join('.')}: ` : ''}${meant.message}; `;
  return `${what}expected ${CAP_FORMS}`;
}

/** The YAML of one cap: USD (`10000`), a share of the capital (`{ share: 0.9 }`) or `null` (no cap). */
export const moneyCapSchema = z.union(
  [
    usdAmount.transform((cents): MoneyCap => ({ cents })),
    z
      .strictObject({
        share: z
          .number({ error: 'share must be a number from 0 to 1' })
          .gt(0, { message: 'a share is above 0 (null turns the cap off)' })
          .max(1, { message: 'a share is at most 1 (the whole capital)' })
          .describe('share (0 to 1) of the capital: balance plus money lent out'),
      })
      .transform((cap): MoneyCap => ({ share: cap.share })),
    z.null(),
  ],
  { error: capError },
);

/** The caps as cents or shares, as RiskLimits holds them: a share is set instead of the cents. */
export interface MoneyCapLimits {
  /** Cap on open exposure (see docs/store.md), including the offer being checked. */
  maxOpenExposureCents?: Cents | undefined;
  maxOpenExposureShare?: number | undefined;
  /** Cap on one borrower's open exposure, including the offer being checked. */
  maxPerBorrowerCents?: Cents | undefined;
  maxPerBorrowerShare?: number | undefined;
  /** Total amount offered per UTC day. */
  maxAmountPerDayCents?: Cents | undefined;
  maxAmountPerDayShare?: number | undefined;
}

/** The caps in cents for a capital: what the guard checks and every view shows. */
export interface CapsNow {
  capitalCents: Cents;
  maxOpenExposureCents: Cents | undefined;
  maxPerBorrowerCents: Cents | undefined;
  maxAmountPerDayCents: Cents | undefined;
}

function capCents(cents: Cents | undefined, share: number | undefined, capital: Cents): Cents | undefined {
  return share === undefined ? cents : Math.floor(share * capital);
}

/** Each cap in cents for the capital `money` shows (a share is rounded down: the cautious side). */
export function capsNow(limits: MoneyCapLimits, money: CapitalFigures): CapsNow {
  const capital = capitalCents(money);
  return {
    capitalCents: capital,
    maxOpenExposureCents: capCents(limits.maxOpenExposureCents, limits.maxOpenExposureShare, capital),
    maxPerBorrowerCents: capCents(limits.maxPerBorrowerCents, limits.maxPerBorrowerShare, capital),
    maxAmountPerDayCents: capCents(limits.maxAmountPerDayCents, limits.maxAmountPerDayShare, capital),
  };
}

/** The cents and share fields of RiskLimits for one parsed cap. */
export function capFields(cap: MoneyCap): { cents: Cents | undefined; share: number | undefined } {
  if (cap === null) return { cents: undefined, share: undefined };
  return 'share' in cap ? { cents: undefined, share: cap.share } : { cents: cap.cents, share: undefined };
}
