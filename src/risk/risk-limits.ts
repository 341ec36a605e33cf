/**
 * The `risk:` section of the config: limits the guard enforces on every offer. YAML uses
 * snake_case and USD amounts (a number or a decimal text); the parsed limits are camelCase and
 * integer cents. Every key is optional; the defaults are conservative.
 */
import { z } from 'zod';
import { amountToCents, decimalText, type Cents } from '../service/index.js';

export interface RiskLimits {
  /** Cash always kept back: balance − reserved − this must exceed an offer's total. */
  minCashReserveCents: Cents;
  /** Risk levels that may be offered on; 3 (friends) and 4 (crypto-backed) are off by default. */
  allowedRiskLevels: number[];
  /** Cap on open exposure (see docs/store.md), including the offer being checked. */
  maxOpenExposureCents?: Cents | undefined;
  /** Cap on one borrower's open exposure, including the offer being checked. */
  maxPerBorrowerCents?: Cents | undefined;
  /** Highest share (0 to 1) of the exposure budget one risk level may take. */
  maxShareByRiskLevel?: Partial<Record<number, number>> | undefined;
  /** Offers per UTC day (every offer made but those the service refused). */
  maxOffersPerDay?: number | undefined;
  /** Total amount offered per UTC day. */
  maxAmountPerDayCents?: Cents | undefined;
  /** Stop all new offers now. */
  killSwitch: boolean;
  /** Stop all new offers while this file exists (`touch data/STOP`). */
  killSwitchFile?: string | undefined;
  /** How long a pending offer reserves money; the service does not say when offers expire. */
  offerExpiryMs: number;
}

const HOUR_MS = 3_600_000;
export const DEFAULT_ALLOWED_RISK_LEVELS = [0, 1, 2];
export const DEFAULT_OFFER_EXPIRY_HOURS = 72;

/** A USD amount, as a YAML number (250, 12.5) or decimal text ("250.00"), turned into cents. */
const usdAmount = z
  .union([z.number(), decimalText])
  .transform((amount) => amountToCents(amount))
  .pipe(z.number().int().nonnegative({ message: 'must not be negative' }));

const riskLevelKey = z.enum(['0', '1', '2', '3', '4']);

export const riskLimitsSchema = z
  .strictObject({
    min_cash_reserve: usdAmount.default(0).describe('USD always kept back (default 0)'),
    allowed_risk_levels: z
      .array(z.number().int().min(0).max(4))
      .default(DEFAULT_ALLOWED_RISK_LEVELS)
      .describe('risk levels that may be offered on: 0 low, 1 medium, 2 high, 3 friends, 4 crypto-backed'),
    max_open_exposure: usdAmount.optional().describe('USD cap on open exposure'),
    max_per_borrower: usdAmount.optional().describe('USD cap on one borrower'),
    max_share_by_risk_level: z
      .partialRecord(riskLevelKey, z.number().min(0).max(1))
      .optional()
      .describe('per risk level, the highest share (0 to 1) of max_open_exposure it may take'),
    max_offers_per_day: z.number().int().nonnegative().optional().describe('offers per UTC day'),
    max_amount_per_day: usdAmount.optional().describe('USD offered per UTC day'),
    kill_switch: z.boolean().default(false).describe('true stops all new offers'),
    kill_switch_file: z.string().min(1).optional().describe('new offers stop while this file exists'),
    offer_expiry_hours: z
      .number()
      .positive()
      .default(DEFAULT_OFFER_EXPIRY_HOURS)
      .describe('hours a pending offer reserves money (the service does not say when offers expire)'),
  })
  .superRefine((section, context) => {
    if (section.max_share_by_risk_level !== undefined && section.max_open_exposure === undefined) {
      context.addIssue({
        code: 'custom',
        path: ['max_share_by_risk_level'],
        message: 'needs max_open_exposure: shares are of the exposure budget',
      });
    }
  })
  .transform(
    (section): RiskLimits => ({
      minCashReserveCents: section.min_cash_reserve,
      allowedRiskLevels: [...new Set(section.allowed_risk_levels)].sort((a, b) => a - b),
      maxOpenExposureCents: section.max_open_exposure,
      maxPerBorrowerCents: section.max_per_borrower,
      maxShareByRiskLevel:
        section.max_share_by_risk_level === undefined
          ? undefined
          : Object.fromEntries(Object.entries(section.max_share_by_risk_level).map(([level, share]) => [Number(level), share])),
      maxOffersPerDay: section.max_offers_per_day,
      maxAmountPerDayCents: section.max_amount_per_day,
      killSwitch: section.kill_switch,
      killSwitchFile: section.kill_switch_file,
      offerExpiryMs: Math.round(section.offer_expiry_hours * HOUR_MS),
    }),
  );

/** The YAML shape of the section, before defaults and conversion. */
export type RiskLimitsInput = z.input<typeof riskLimitsSchema>;

/** The limits when the config has no `risk:` section. */
export const DEFAULT_RISK_LIMITS: RiskLimits = riskLimitsSchema.parse({});
