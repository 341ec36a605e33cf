/**
 * Variants the decision benches compare (bench/decision-quality.ts, its tests): a strategy file
 * with its pricing section changed, and a recording without the borrowers' reservation rates.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse, stringify } from 'yaml';
import type { PreparedRecording } from '../src/backtest/index.js';
import { withLine } from '../src/backtest/prepared-recording.js';
import { compileStrategy, parseStrategyText, type CompiledStrategy } from '../src/engine/index.js';

/** Pricing settings that only `mode: expected_profit` accepts (strategy-rules.ts). */
const EXPECTED_PROFIT_ONLY = ['level_uncertainty', 'learning', 'winners_curse'] as const;

/**
 * The strategy file with `pricing` merged into its pricing section and named `name-suffix` (two
 * strategies in one backtest need different names): the same scorecard and filters. It is compiled
 * as if it sat beside the file, so relative paths in it (a market file) still resolve.
 */
export function pricingVariant(file: string, suffix: string, pricing: Record<string, unknown>): CompiledStrategy {
  const doc = parse(readFileSync(file, 'utf8')) as { name: string; pricing: Record<string, unknown> };
  doc.name = `${doc.name}-${suffix}`;
  doc.pricing = { ...doc.pricing, ...pricing };
  // What only expected-profit pricing reads would make a cost-plus twin invalid: the twin keeps
  // the scorecard, its calibration (learned or not) and the filters, and prices by cost alone.
  if (doc.pricing.mode !== 'expected_profit') for (const key of EXPECTED_PROFIT_ONLY) delete doc.pricing[key];
  const text = stringify(doc);
  const variant = join(dirname(file), `${doc.name}.yaml`);
  return compileStrategy(parseStrategyText(text, variant), { file: variant, text });
}

/** The recording as a recording without reservation rates: every line's acceptance left to a world. */
export function withoutReservations(recording: PreparedRecording): PreparedRecording {
  return {
    duplicates: recording.duplicates,
    entries: recording.entries.map((entry) => {
      if (entry.line.outcome?.reservation_rate === undefined) return entry;
      const { reservation_rate: _dropped, ...outcome } = entry.line.outcome;
      return withLine(entry, { ...entry.line, outcome });
    }),
  };
}
