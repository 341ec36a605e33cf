/**
 * `--market FILE.yaml|json`: the market model's settings in one file (docs/backtesting.md), for
 * a backtest or tune on a market whose borrowers were fitted (`lendbot train`) or are being
 * explored. Every section and key is optional; unknown keys are refused, so a typo does not
 * silently fall back to the default.
 */
import { readFileSync } from 'node:fs';
import { InvalidArgumentError } from 'commander';
import { parse } from 'yaml';
import { z } from 'zod';

const share = z.number().min(0).max(1);

export const marketFileSchema = z.strictObject({
  takeUp: z.strictObject({ midpoint: z.number().optional(), steepness: z.number().min(0).optional() }).optional(),
  competition: z
    .strictObject({
      share: share.optional(),
      intercept: z.number().optional(),
      perDefault: z.number().optional(),
      spread: z.number().min(0).optional(),
      width: z.number().min(0).optional(),
      /** hard (default): no offer wins at or above a recorded competing rate; soft: compared by `width`. */
      comparison: z.enum(['hard', 'soft']).optional(),
    })
    .optional(),
  prepayment: z.strictObject({ share: share.optional(), atTermFraction: share.optional() }).optional(),
  recoveryDelayMonths: z.number().int().min(0).optional(),
  seed: z.number().int().optional(),
});
export type MarketFile = z.infer<typeof marketFileSchema>;

/** Reads and checks a market file (an option parser: failures are InvalidArgumentErrors). */
export function readMarketFile(file: string): MarketFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new InvalidArgumentError(`cannot read ${file}`);
  }
  let raw: unknown;
  try {
    // YAML is a superset of JSON: one parser reads both.
    raw = parse(text) ?? {};
  } catch (error) {
    throw new InvalidArgumentError(`${file} is not YAML or JSON: ${(error as Error).message.split('\n')[0] ?? ''}`);
  }
  const parsed = marketFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InvalidArgumentError(`${file}: ${issue ? `${issue.path.join('.') || '(top)'}: ${issue.message}` : 'invalid'}`);
  }
  return parsed.data;
}
