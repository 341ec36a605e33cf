/**
 * The config's `retrain:` section (config/lendbot.yaml; docs/training.md, "Retraining while
 * live"), and the settings the loop reads, in the clock's milliseconds.
 */
import { z } from 'zod';
import { DAY_MS } from '../clock/time-constants.js';

/**
 * The fewest resolved loans a calibration fit takes (`lendbot train`'s MIN_LABELLED, written out
 * so the config schema does not load the trainer at start-up; retrain-config.test.ts holds them equal).
 */
export const MIN_RESOLVED_FLOOR = 50;

export const retrainSectionSchema = z.strictObject({
  enabled: z
    .boolean()
    .default(false)
    .describe('retrain each live strategy’s calibration from the lender’s own loans on a schedule (off: lendbot retrain run by hand)'),
  every_days: z.number().positive().default(7).describe('days between two rounds of one strategy'),
  min_resolved: z
    .number()
    .int()
    .min(MIN_RESOLVED_FLOOR)
    .default(200)
    .describe('resolved loans (repaid or defaulted) a round needs; fewer: refused as noise'),
  held_out_share: z
    .number()
    .gt(0)
    .lt(1)
    .default(0.3)
    .describe('the newest share of the resolved loans the candidate is judged on, never fitted on'),
  shadow_days: z.number().min(0).default(14).describe('days a candidate that holds out decides in shadow before it can be promoted'),
  promote_min_gain: z
    .number()
    .min(0)
    .default(0)
    .describe('net annualized return (0.01 = 1 point) the candidate must gain over its shadow period to be promoted'),
});

export type RetrainSection = z.infer<typeof retrainSectionSchema>;

/** The loop's settings. */
export interface RetrainSettings {
  enabled: boolean;
  everyMs: number;
  minResolved: number;
  heldOutShare: number;
  shadowMs: number;
  promoteMinGain: number;
}

export function retrainSettings(section: RetrainSection): RetrainSettings {
  return {
    enabled: section.enabled,
    everyMs: section.every_days * DAY_MS,
    minResolved: section.min_resolved,
    heldOutShare: section.held_out_share,
    shadowMs: section.shadow_days * DAY_MS,
    promoteMinGain: section.promote_min_gain,
  };
}
