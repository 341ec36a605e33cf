/**
 * The score compiled to closures: a points scorecard, a logistic model and/or a trained model
 * file, each term a function of one feature slot. All produce log-odds of repayment, which add up:
 *   scorecard: ln(base_odds) + (sum of term points) * ln 2 / points_to_double_odds
 *   logistic:  intercept + sum of weight * (clamp(transform(value)) - center)
 *   model:     intercept + sum of its features' terms (src/engine/model/model-encoding.ts)
 *   probability = 1 / (1 + e^-(log-odds))
 */
import type { Contribution } from '../decision.js';
import { resolveNumber } from '../definition/param-values.js';
import type { NumberOrParam, ScoreDefinition } from '../definition/strategy-schema.js';
import type { FeatureValue } from '../features/feature-definition.js';
import type { LoadedModel } from '../model/load-model-file.js';
import { modelTerms } from '../model/model-terms.js';
import type { FeatureTable } from './feature-table.js';

type Term = (values: readonly FeatureValue[]) => Contribution;

export interface CompiledScore {
  minProbability: number;
  /** Every contribution line (constants first); their logOdds sum to the total. */
  contributions(values: readonly FeatureValue[]): Contribution[];
}

export function logistic(logOdds: number): number {
  return 1 / (1 + Math.exp(-logOdds));
}

/** The probability a set of contributions adds up to. */
export function probabilityOf(contributions: readonly Contribution[]): number {
  let total = 0;
  for (const line of contributions) total += line.logOdds;
  return logistic(total);
}

function scorecardTerms(score: ScoreDefinition, params: Record<string, number>, table: FeatureTable): Term[] {
  const card = score.scorecard;
  if (!card) return [];
  const n = (value: NumberOrParam): number => resolveNumber(value, params);
  const perPoint = Math.LN2 / n(card.points_to_double_odds);
  const baseOdds = n(card.base_odds);
  const base: Contribution = { feature: 'scorecard.base', value: null, points: n(card.base_points), logOdds: Math.log(baseOdds), model: 'scorecard' };
  const terms: Term[] = [() => ({ ...base })];
  for (const term of card.terms) {
    const slot = table.slot(term.feature);
    const missing = n(term.missing);
    const center = n(term.center);
    const bins = term.bins?.map((bin) => ({ below: bin.below === undefined ? Number.POSITIVE_INFINITY : n(bin.below), points: n(bin.points) }));
    const levels = term.levels ? new Map(Object.entries(term.levels).map(([key, value]) => [key, n(value)])) : undefined;
    const perUnit = term.per_unit === undefined ? undefined : n(term.per_unit);
    const pointsOf = (value: Exclude<FeatureValue, null>): number => {
      if (bins) {
        for (const bin of bins) if ((value as number) < bin.below) return bin.points;
        return 0;
      }
      if (levels) return levels.get(String(value)) ?? missing;
      return ((value as number) - center) * (perUnit ?? 0);
    };
    terms.push((values) => {
      const value = values[slot] ?? null;
      const points = value === null ? missing : pointsOf(value);
      const line: Contribution = { feature: term.feature, value, points, logOdds: points * perPoint, model: 'scorecard' };
      if (value === null) line.missing = true;
      return line;
    });
  }
  return terms;
}

function logisticTerms(score: ScoreDefinition, params: Record<string, number>, table: FeatureTable): Term[] {
  const model = score.logistic;
  if (!model) return [];
  const n = (value: NumberOrParam): number => resolveNumber(value, params);
  const intercept = n(model.intercept);
  const terms: Term[] = [() => ({ feature: 'logistic.intercept', value: null, points: intercept, logOdds: intercept, model: 'logistic' })];
  for (const term of model.terms) {
    const slot = table.slot(term.feature);
    const weight = n(term.weight);
    const center = n(term.center);
    const missing = n(term.missing);
    const low = term.clamp ? n(term.clamp[0]) : Number.NEGATIVE_INFINITY;
    const high = term.clamp ? n(term.clamp[1]) : Number.POSITIVE_INFINITY;
    const log1p = term.transform === 'log1p';
    terms.push((values) => {
      const value = values[slot] ?? null;
      if (typeof value !== 'number') {
        return { feature: term.feature, value, points: missing, logOdds: missing, model: 'logistic', missing: true };
      }
      const input = Math.min(high, Math.max(low, log1p ? Math.log1p(Math.max(0, value)) : value));
      const logOdds = weight * (input - center);
      return { feature: term.feature, value, points: logOdds, logOdds, model: 'logistic' };
    });
  }
  return terms;
}

/**
 * Compiles the score. `model` is the file `score.model` names, loaded by the caller (compiling
 * does no I/O); throws RangeError when the score names a model and none is given.
 */
export function compileScore(score: ScoreDefinition, params: Record<string, number>, table: FeatureTable, model?: LoadedModel): CompiledScore {
  if (score.model !== undefined && model === undefined) {
    throw new RangeError(`score.model "${score.model}" is not loaded: load the strategy with loadStrategyFile, which reads it`);
  }
  const terms = [...scorecardTerms(score, params, table), ...logisticTerms(score, params, table), ...(model ? modelTerms(model, table) : [])];
  return {
    minProbability: resolveNumber(score.min_probability, params),
    contributions: (values) => terms.map((term) => term(values)),
  };
}
