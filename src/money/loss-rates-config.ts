/**
 * The `ledger:` section of config/lendbot.yaml: the shares of principal equity counts as an
 * expected loss on late loans (equity.ts, docs/ledger.md). Every view of equity reads them:
 * the returns API and the agent connector from the loaded configuration, `lendbot status` from
 * its own.
 */
import { z } from 'zod';
import { DEFAULT_LOSS_RATES, type LossRates } from './equity.js';

const share = z.number().min(0).max(1);

export const ledgerSectionSchema = z
  .strictObject({
    expected_loss: z
      .array(z.strictObject({ days_late: z.number().int().min(1), share }))
      .default(DEFAULT_LOSS_RATES.byDaysLate.map((step) => ({ days_late: step.daysLate, share: step.rate })))
      .refine((steps) => steps.every((step, i) => i === 0 || step.days_late > (steps[i - 1]?.days_late ?? 0)), {
        message: 'days_late must rise from one step to the next',
      })
      .describe('from days_late days late on, this share of the principal still out is expected lost'),
    missed_payment_loss: share.default(DEFAULT_LOSS_RATES.missed).describe('the least share expected lost once a payment is missed'),
  })
  .describe('how equity counts losses that are likely but not yet written off (docs/ledger.md)');

export type LedgerSection = z.infer<typeof ledgerSectionSchema>;

export function lossRatesOf(section: LedgerSection): LossRates {
  return {
    byDaysLate: section.expected_loss.map((step) => ({ daysLate: step.days_late, rate: step.share })),
    missed: section.missed_payment_loss,
  };
}

/** The loss rates of a loaded configuration (the daemon's, as the agent context holds it); the defaults without a `ledger:` section. */
export function lossRatesFromConfig(config: unknown): LossRates {
  const section = typeof config === 'object' && config !== null && 'ledger' in config ? config.ledger : undefined;
  const parsed = ledgerSectionSchema.safeParse(section ?? {});
  return parsed.success ? lossRatesOf(parsed.data) : DEFAULT_LOSS_RATES;
}
