/**
 * The market file `lendbot train market` writes and a strategy's `pricing.market.file`
 * reads (docs/training.md): JSON, versioned, the fitted market response (competition and a take-up
 * curve that may depend on the borrower's default probability) with the evidence each part rests
 * on, so a reader can tell a fit on thousands of offers from one on a handful. Loading validates
 * it like a strategy file (every problem at once, as `file:line:col path: message`).
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { parseYamlText, readConfigText } from '../config/index.js';
import type { PartialMarketResponse } from './market-response.js';
import { fittedMarket } from './model/load-model-file.js';

export const MARKET_FORMAT = 'lendbot-market';
export const MARKET_VERSION = 1;

const finite = z.number().refine(Number.isFinite, 'expected a finite number');
const count = z.number().int().min(0);

/** How much one part of the fit rests on: observations, and a plain verdict for a reader. */
const evidenceSchema = z.looseObject({
  lines: count,
  /** 'fitted': enough to trust; 'thin': fitted, but on few observations; 'none': not fitted (the prior stays). */
  verdict: z.enum(['fitted', 'thin', 'none']),
  note: z.string().optional(),
});

const marketFileSchema = z.looseObject({
  format: z.literal(MARKET_FORMAT, { error: `expected format "${MARKET_FORMAT}" (a file written by lendbot train market)` }),
  version: z.literal(MARKET_VERSION, { error: `expected version ${MARKET_VERSION}; refit with this lendbot` }),
  fitted: z
    .looseObject({ data_file: z.string(), fitted_at: z.string(), period: z.looseObject({ from: z.string(), to: z.string() }) })
    .optional(),
  competition: z
    .strictObject({
      share: z.number().min(0).max(1).optional(),
      intercept: finite.optional(),
      per_default: finite.optional(),
      spread: z.number().min(0).optional(),
    })
    .optional(),
  take_up: z
    .strictObject({
      midpoint: finite,
      steepness: z.number().min(0),
      midpoint_per_default: finite.default(0),
      steepness_per_default: finite.default(0),
    })
    .optional(),
  evidence: z
    .looseObject({
      competition_share: evidenceSchema.optional(),
      competition_rate: evidenceSchema.optional(),
      take_up: evidenceSchema
        .extend({
          took: count.optional(),
          walked: count.optional(),
          own_offers: count.optional(),
          competing_offers: count.optional(),
          history_rates: count.optional(),
        })
        .optional(),
      winners_curse: evidenceSchema.extend({ repaid: count.optional(), defaulted: count.optional() }).optional(),
    })
    .optional(),
  /** The winner's curse fitted on own funded loans (src/engine/market/repay-curse.ts): w over [1, u, u·logit p]. */
  winners_curse: z.strictObject({ w: z.array(finite).length(3), sd: z.array(z.number().min(0)).length(3).optional() }).optional(),
});

type MarketFile = z.infer<typeof marketFileSchema>;
export type MarketFileInput = z.input<typeof marketFileSchema>;

export interface LoadedMarketFile {
  file: string;
  /** sha256 of the file's bytes, hex: joins the strategy's content hash. */
  sha256: string;
  definition: MarketFile;
  /** The file's numbers in the shape pricing takes (only those it has). */
  market: PartialMarketResponse;
}

/**
 * The file's numbers as a partial market response: a part the file leaves out stays unset. The
 * same reading as a model file's `market` section (per-default terms only when not 0, so a
 * borrower-blind file prices exactly as the same numbers written inline).
 */
function marketOfFile(file: MarketFile): PartialMarketResponse {
  const market =
    fittedMarket({ ...(file.competition ? { competition: file.competition } : {}), ...(file.take_up ? { take_up: file.take_up } : {}) }) ??
    {};
  return file.winners_curse === undefined ? market : { ...market, curse: file.winners_curse.w };
}

/** `over`'s numbers over `under`'s, section by section (either may be absent). */
export function layerMarkets(
  under: PartialMarketResponse | undefined,
  over: PartialMarketResponse | undefined,
): PartialMarketResponse | undefined {
  if (under === undefined) return over;
  if (over === undefined) return under;
  const layered: PartialMarketResponse = {};
  if (under.takeUp !== undefined || over.takeUp !== undefined) layered.takeUp = { ...under.takeUp, ...over.takeUp };
  if (under.competition !== undefined || over.competition !== undefined)
    layered.competition = { ...under.competition, ...over.competition };
  const curse = over.curse ?? under.curse;
  if (curse !== undefined) layered.curse = curse;
  return layered;
}

/** Parses and checks market file text; `file` names it in messages. Throws ConfigFileError. */
export function parseMarketText(text: string, file: string): LoadedMarketFile {
  const definition = parseYamlText(text, file, marketFileSchema);
  return { file, sha256: createHash('sha256').update(text).digest('hex'), definition, market: marketOfFile(definition) };
}

/** Reads, checks and hashes a market file. A missing or invalid file is a ConfigFileError. */
export async function loadMarketFile(path: string): Promise<LoadedMarketFile> {
  return parseMarketText(await readConfigText(path), path);
}
