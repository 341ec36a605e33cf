/**
 * Loading a model file for a strategy's `score.model`: read, validate (every problem at once, as
 * `file:line:col path: message`, like a strategy file: JSON is YAML, so the same positioned
 * parser locates them), check every feature against this lendbot's catalogue, and hash it.
 */
import { createHash } from 'node:crypto';
import { parseYamlText, readConfigText, didYouMean, type CrossFieldRule, type RuleProblem } from '../../config/index.js';
import { FEATURE_NAMES, featureByName } from '../features/feature-catalogue.js';
import type { CompetitionModel, PartialMarketResponse } from '../market-response.js';
import { modelFileSchema, type MarketSection, type ModelFile } from './model-file.js';

/** The market response a model file carries, in the shape pricing takes. */
export type FittedMarket = PartialMarketResponse;

export interface LoadedModel {
  /** The path it was read from. */
  file: string;
  /** sha256 of the file's bytes, hex: goes into the strategy's content hash. */
  sha256: string;
  definition: ModelFile;
  /** Absent when the file has no `market` section. */
  market?: FittedMarket;
}

const KNOWN = new Set<string>(FEATURE_NAMES);

function featureProblems(model: ModelFile): RuleProblem[] {
  const problems: RuleProblem[] = [];
  const seen = new Set<string>();
  model.features.forEach((feature, index) => {
    const path = ['features', index, 'name'];
    if (seen.has(feature.name)) problems.push({ path, message: `feature "${feature.name}" appears twice` });
    seen.add(feature.name);
    if (!KNOWN.has(feature.name)) {
      problems.push({
        path,
        message: `unknown feature "${feature.name}" (not in this lendbot's feature catalogue, which lendbot strategy features lists: retrain the model)${didYouMean(feature.name, FEATURE_NAMES)}`,
      });
      return;
    }
    const kind = featureByName(feature.name).kind;
    if (feature.encoding === 'standardised' && kind === 'string') {
      problems.push({ path, message: `feature "${feature.name}" is text; a standardised encoding needs a number or yes/no feature` });
    }
    if (feature.encoding === 'levels' && kind === 'number') {
      problems.push({ path, message: `feature "${feature.name}" is a number; a levels encoding needs a text or yes/no feature` });
    }
  });
  return problems;
}

const MODEL_RULES: ReadonlyArray<CrossFieldRule<ModelFile>> = [featureProblems];

/** The market section in the shape of src/engine/market-response.ts (only the fields it has). */
export function fittedMarket(section: MarketSection | undefined): FittedMarket | undefined {
  if (!section) return undefined;
  const market: FittedMarket = {};
  const c = section.competition;
  if (c) {
    const competition: Partial<CompetitionModel> = {};
    if (c.share !== undefined) competition.share = c.share;
    if (c.intercept !== undefined) competition.intercept = c.intercept;
    if (c.per_default !== undefined) competition.perDefault = c.per_default;
    if (c.spread !== undefined) competition.spread = c.spread;
    market.competition = competition;
  }
  const t = section.take_up;
  if (t) {
    market.takeUp = { midpoint: t.midpoint, steepness: t.steepness };
    // Borrower-dependent terms (lendbot train writes them; older files lack them): only when not 0.
    if (typeof t.midpoint_per_default === 'number' && t.midpoint_per_default !== 0)
      market.takeUp.midpointPerDefault = t.midpoint_per_default;
    if (typeof t.steepness_per_default === 'number' && t.steepness_per_default !== 0)
      market.takeUp.steepnessPerDefault = t.steepness_per_default;
  }
  return market;
}

/** Parses and checks model text; `file` names it in messages. Throws ConfigFileError. */
export function parseModelText(text: string, file: string): LoadedModel {
  const definition = parseYamlText(text, file, modelFileSchema, MODEL_RULES);
  const market = fittedMarket(definition.market);
  return {
    file,
    sha256: createHash('sha256').update(text).digest('hex'),
    definition,
    ...(market === undefined ? {} : { market }),
  };
}

/** Reads, checks and hashes a model file. A missing or invalid file is a ConfigFileError. */
export async function loadModelFile(path: string): Promise<LoadedModel> {
  return parseModelText(await readConfigText(path), path);
}
