// Marketplace 2.10: the two third-party score providers' answers. Provider names are brand names the
// operator supplies; the shapes below tell the two apart.
import { z } from 'zod';
import { dateText, id, timestampText } from './common.js';

export const providerAResultSchema = z.looseObject({
  loan_request_id: id,
  model_version: z.string(),
  a_score: z.number().int(),
  a_score_request_id: z.string(),
  timestamp: timestampText,
});
export type ProviderAResult = z.infer<typeof providerAResultSchema>;

export const PROVIDER_B_BANDS = ['excellent', 'good', 'average', 'poor'] as const;

export const providerBResultSchema = z.looseObject({
  p2p_score: z.looseObject({
    date: dateText,
    score: z.number().int().min(0).max(100),
    score_band: z.string(),
    loan_request_id: z.string(),
  }),
  attributes: z
    .looseObject({
      date: dateText.optional(),
      loan_request_id: z.string().optional(),
      attributes: z.record(z.string(), z.unknown()),
    })
    .optional(),
});
export type ProviderBResult = z.infer<typeof providerBResultSchema>;

/** Either provider's answer; which one is told by its shape. */
export const providerResultSchema = z.union([providerAResultSchema, providerBResultSchema]);
export type ProviderResult = z.infer<typeof providerResultSchema>;

/** Provider B's band for a score: excellent 75-100, good 50-75, average 25-50, poor 0-25. */
export function providerBBand(score: number): (typeof PROVIDER_B_BANDS)[number] {
  if (score >= 75) return 'excellent';
  if (score >= 50) return 'good';
  if (score >= 25) return 'average';
  return 'poor';
}
