/**
 * `--market FILE`: the market a backtest or tune replays against (docs/backtesting.md). One format,
 * the `lendbot-market` v1 file `lendbot train market` writes (src/engine/market-file.ts), so
 * a trained market, its borrower-dependent take-up included, replays as it was fitted. Settings only
 * a replay reads (prepayment, recovery delay, seed, how a competing rate is compared, what an
 * unknown one is, the decision delay) go in its optional `backtest:` section: the one place a
 * replay's market is set (the flags that repeated it are refused). The older settings file
 * (camelCase `takeUp`, `competition`, `prepayment`, ...) is still read, with a deprecation note.
 * Unknown keys are refused in both, so a typo does not silently fall back to the default.
 */
import { readFileSync } from 'node:fs';
import { InvalidArgumentError } from 'commander';
import { parse } from 'yaml';
import { z } from 'zod';
import { ConfigFileError } from '../../../config/index.js';
import type { PartialMarketResponse } from '../../../engine/index.js';
import { parseMarketText } from '../../../engine/market-file.js';
import type { MarketAssumptions } from '../../../backtest/index.js';

const share = z.number().min(0).max(1);
const comparison = z.enum(['hard', 'soft']);

/** The old settings file (deprecated: read, with a note). */
const legacySchema = z.strictObject({
  takeUp: z.strictObject({ midpoint: z.number().optional(), steepness: z.number().min(0).optional() }).optional(),
  competition: z
    .strictObject({
      share: share.optional(),
      intercept: z.number().optional(),
      perDefault: z.number().optional(),
      spread: z.number().min(0).optional(),
      width: z.number().min(0).optional(),
      /** hard (default): no offer wins at or above a recorded competing rate; soft: compared by `width`. */
      comparison: comparison.optional(),
    })
    .optional(),
  prepayment: z.strictObject({ share: share.optional(), atTermFraction: share.optional() }).optional(),
  recoveryDelayMonths: z.number().int().min(0).optional(),
  seed: z.number().int().optional(),
});

/** The `backtest:` section of a lendbot-market file: what only a replay reads. */
const backtestSectionSchema = z.strictObject({
  comparison: comparison.optional(),
  width: z.number().min(0).optional(),
  prepayment: z.strictObject({ share: share.optional(), at_term_fraction: share.optional() }).optional(),
  recovery_delay_months: z.number().int().min(0).optional(),
  seed: z.number().int().optional(),
  /** When the recording does not tell the competing rate: win (as if nobody offered), lose, or a rate taken at. */
  unknown_competition: z.union([z.enum(['win', 'lose']), z.number().min(0)]).optional(),
  /** Hours from an offer to the borrower's answer. */
  decision_delay_hours: z.number().min(0).optional(),
});

/** A `--market` file read into what the replay takes, whichever format it was written in. */
export interface MarketFile {
  file: string;
  /** The old settings format: the command prints a deprecation note. */
  legacy: boolean;
  /** The market response's numbers the file sets (per-default take-up terms included). */
  response: PartialMarketResponse;
  comparison?: MarketAssumptions['comparison'];
  prepayment?: Partial<MarketAssumptions['prepayment']>;
  recoveryDelayMonths?: number;
  seed?: number;
  unknownCompetition?: MarketAssumptions['unknownCompetition'];
  decisionDelayHours?: number;
}

/** What a lender reads when the old format is given. */
export function legacyMarketNote(file: string): string {
  return `${file} is in the old market settings format (takeUp, competition, prepayment, ...), which will be dropped; write it as a lendbot-market file (format: lendbot-market, version: 1, take_up, competition, backtest: { prepayment, recovery_delay_months, seed, comparison, width, unknown_competition, decision_delay_hours }), see docs/backtesting.md`;
}

/** The keys of `value` that are set (an optional key of a parsed file may hold undefined). */
function defined<T extends object>(value: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> };
}

function firstIssue(file: string, error: z.ZodError, prefix = ''): InvalidArgumentError {
  const issue = error.issues[0];
  return new InvalidArgumentError(`${file}: ${issue ? `${prefix}${issue.path.join('.') || '(top)'}: ${issue.message}` : 'invalid'}`);
}

function fromLegacy(file: string, raw: unknown): MarketFile {
  const parsed = legacySchema.safeParse(raw);
  if (!parsed.success) throw firstIssue(file, parsed.error);
  const { takeUp, competition, prepayment, recoveryDelayMonths, seed } = parsed.data;
  const { comparison: chosen, ...model } = competition ?? {};
  const response: PartialMarketResponse = {};
  if (takeUp !== undefined) response.takeUp = defined(takeUp);
  if (competition !== undefined) response.competition = defined(model);
  return {
    file,
    legacy: true,
    response,
    ...defined({ comparison: chosen, recoveryDelayMonths, seed }),
    ...(prepayment === undefined ? {} : { prepayment: defined(prepayment) }),
  };
}

function fromMarketFile(file: string, text: string): MarketFile {
  let loaded;
  try {
    loaded = parseMarketText(text, file);
  } catch (error) {
    if (error instanceof ConfigFileError) throw new InvalidArgumentError(error.message);
    throw error;
  }
  const section = backtestSectionSchema.safeParse((loaded.definition as { backtest?: unknown }).backtest ?? {});
  if (!section.success) throw firstIssue(file, section.error, 'backtest.');
  const {
    comparison: chosen,
    width,
    prepayment,
    recovery_delay_months: recoveryDelayMonths,
    seed,
    unknown_competition: unknownCompetition,
    decision_delay_hours: decisionDelayHours,
  } = section.data;
  const response: PartialMarketResponse = { ...loaded.market };
  if (width !== undefined) response.competition = { ...response.competition, width };
  return {
    file,
    legacy: false,
    response,
    ...defined({ comparison: chosen, recoveryDelayMonths, seed, unknownCompetition, decisionDelayHours }),
    ...(prepayment === undefined ? {} : { prepayment: defined({ share: prepayment.share, atTermFraction: prepayment.at_term_fraction }) }),
  };
}

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
  // A file that names its format is a lendbot-market file (its reader checks the name and version).
  const named = typeof raw === 'object' && raw !== null && 'format' in raw;
  return named ? fromMarketFile(file, text) : fromLegacy(file, raw);
}
