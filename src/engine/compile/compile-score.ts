/**
 * The score compiled to closures: a points scorecard, a logistic model and/or a trained model
 * file, each term a function of one feature slot. All produce log-odds of repayment, which add up:
 *   scorecard: ln(base_odds) + (sum of term points) * ln 2 / points_to_double_odds
 *   logistic:  intercept + sum of weight * (clamp(transform(value)) - center)
 *   model:     intercept + sum of its features' terms (src/engine/model/model-encoding.ts)
 *   calibration (optional): the total log-odds mapped (compile-calibration.ts), one more line;
 *     a learned one adds its seed's line (if any), then its own, under the learner's posterior,
 *     then with `history_anchor` the borrower's completed loans' line (learned-calibration.ts)
 *   probability = 1 / (1 + e^-(log-odds))
 */
import { logistic } from '../../math/index.js';
import type { Contribution } from '../decision.js';
import { resolveNumber } from '../definition/param-values.js';
import type { NumberOrParam, ScoreDefinition } from '../definition/strategy-schema.js';
import type { FeatureValue } from '../features/feature-definition.js';
import type { LoadedModel } from '../model/load-model-file.js';
import { modelTerms } from '../model/model-terms.js';
import { compileCalibration, learnedMap, type CompiledCalibration } from './compile-calibration.js';
import { learnedCalibrationOf, type AnchorCosts, type LearnedCalibration } from './learned-calibration.js';
import type { FeatureSource } from '../features/feature-source.js';
import { LEARNED_LINE } from '../market/calibration-learners.js';
import type { FeatureTable } from './feature-table.js';

type Term = (values: readonly FeatureValue[]) => Contribution;

export interface CompiledScore {
  minProbability: number;
  /**
   * Every contribution line (constants first); their logOdds sum to the total. `source` gives a
   * learned calibration's history anchor the borrower's completed loans (without it: no anchor line).
   */
  contributions(values: readonly FeatureValue[], source?: FeatureSource): Contribution[];
  /** A learned calibration (`method: learned`): what pricing reads of its level and uncertainty. */
  learned?: LearnedCalibration;
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
  const base: Contribution = {
    feature: 'scorecard.base',
    value: null,
    points: n(card.base_points),
    logOdds: Math.log(baseOdds),
    model: 'scorecard',
  };
  const terms: Term[] = [() => ({ ...base })];
  for (const term of card.terms) {
    const slot = table.slot(term.feature);
    const missing = n(term.missing);
    const center = n(term.center);
    const bins = term.bins?.map((bin) => ({
      below: bin.below === undefined ? Number.POSITIVE_INFINITY : n(bin.below),
      points: n(bin.points),
    }));
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
    const points = (value: FeatureValue): number => (value === null ? missing : pointsOf(value));
    terms.push((values) => {
      const value = values[slot] ?? null;
      const termPoints = points(value);
      const line: Contribution = { feature: term.feature, value, points: termPoints, logOdds: termPoints * perPoint, model: 'scorecard' };
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
    const logOddsOf = (value: number): number =>
      weight * (Math.min(high, Math.max(low, log1p ? Math.log1p(Math.max(0, value)) : value)) - center);
    terms.push((values) => {
      const value = values[slot] ?? null;
      if (typeof value !== 'number') {
        return { feature: term.feature, value, points: missing, logOdds: missing, model: 'logistic', missing: true };
      }
      const logOdds = logOddsOf(value);
      return { feature: term.feature, value, points: logOdds, logOdds, model: 'logistic' };
    });
  }
  return terms;
}

/**
 * Compiles the score. `model` is the file `score.model` names, loaded by the caller (compiling
 * does no I/O); throws RangeError when the score names a model and none is given. `strategyName`
 * names a learned calibration's learner among the active ones (without it: the prior).
 */
export function compileScore(
  score: ScoreDefinition,
  params: Record<string, number>,
  table: FeatureTable,
  model?: LoadedModel,
  strategyName?: string,
  anchorCosts?: AnchorCosts,
): CompiledScore {
  if (score.model !== undefined && model === undefined) {
    throw new RangeError(`score.model "${score.model}" is not loaded: load the strategy with loadStrategyFile, which reads it`);
  }
  const terms = [
    ...scorecardTerms(score, params, table),
    ...logisticTerms(score, params, table),
    ...(model ? modelTerms(model, table) : []),
  ];
  const written = score.calibration;
  const learned = learnedCalibrationOf(written, strategyName, anchorCosts);
  // A learned calibration's seed is the fitted map under it (a line of its own), then the learned line.
  const fitted = written?.method === 'learned' ? written.seed : written;
  const calibration = fitted ? compileCalibration(fitted, params) : undefined;
  const calibrationName = `calibration.${fitted?.method ?? ''}`;
  const compiled: CompiledScore = {
    minProbability: resolveNumber(score.min_probability, params),
    contributions: (values, source) => {
      const lines = terms.map((term) => term(values));
      if (calibration !== undefined) lines.push(calibrationLine(calibrationName, calibration, lines));
      if (learned !== undefined) {
        lines.push(calibrationLine(LEARNED_LINE, learnedMapNow(learned), lines));
        const anchor = learned.anchorLine(lines, source);
        if (anchor !== undefined) lines.push(anchor);
      }
      return lines;
    },
  };
  if (learned !== undefined) compiled.learned = learned;
  return compiled;
}

/** The learned calibration as a map, under the posterior it prices with now. */
function learnedMapNow(learned: LearnedCalibration): CompiledCalibration {
  const posterior = learned.posterior();
  return (logOdds) => learnedMap(posterior, logOdds);
}

/** The calibration's line: its value is the score's probability before calibration. */
function calibrationLine(feature: string, calibration: CompiledCalibration, lines: readonly Contribution[]): Contribution {
  let total = 0;
  for (const line of lines) total += line.logOdds;
  // What the calibration adds to the raw total log-odds.
  const logOdds = calibration(total) - total;
  return { feature, value: logistic(total), points: logOdds, logOdds, model: 'calibration' };
}
