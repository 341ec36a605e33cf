/**
 * FAST PATH of src/engine/decide-step.ts:decideSync; equivalence: test/backtest/tune-column-path.test.ts; change both or neither.
 *
 * Tuning over columns: a strategy's filters, score and data rounds evaluated once per request of
 * a period, by the engine's own compiled code, into typed arrays a trial then only compares its
 * thresholds against. What a trial's params can change is kept apart from what they cannot:
 *
 * - a filter without params passes or fails once and for all (one pass mask for all of them);
 * - a filter with a param bound (`min: $x`, `max: $x`) keeps the feature's value per request, and
 *   the rest of it (its fixed bound, `in`, `not_in`, what an absent value does) joins the mask;
 * - the score, when only `min_probability` names a param, gives one repayment probability per request;
 * - pricing is left to price-book.ts (per distinct value of the params it reads).
 *
 * The data rounds are those of the decide step (src/engine/decide-step.ts) for a strategy that
 * buys no paid provider: with banking data `after_filters` the free filters run before the data
 * is bought and again after it; with `always` only after; with `never` there is no second round.
 * A strategy this cannot represent exactly gets a reason instead, and its trials are full backtests.
 */
import { compileFilter } from '../../engine/compile/compile-filters.js';
import { compileScore, probabilityOf } from '../../engine/compile/compile-score.js';
import { columnSourceOf, type StrategyColumnSource } from '../../engine/compile/compile-strategy.js';
import type { FilterDefinition, NumberOrParam } from '../../engine/definition/strategy-schema.js';
import { findParamReferences, referencedParam, resolveNumber } from '../../engine/definition/param-values.js';
import type { FeatureSource } from '../../engine/features/feature-source.js';
import type { FeatureValue } from '../../engine/features/feature-definition.js';
import type { CompiledStrategy, Enrichment } from '../../engine/index.js';
import type { PreparedRecording } from '../prepared-recording.js';
import type { ParamValues } from './param-space.js';

/** A filter bound by a param: the feature's value per request (NaN when absent) and its bounds. */
interface ThresholdColumn {
  values: Float64Array;
  min: NumberOrParam | undefined;
  max: NumberOrParam | undefined;
}

/** One period's requests evaluated for every param set of one strategy. */
export interface TrialColumns {
  recording: PreparedRecording;
  source: StrategyColumnSource;
  /** 1 when every part of every filter that names no param passes. */
  fixedPass: Uint8Array;
  thresholds: ThresholdColumn[];
  /** The score's repayment probability per request; NaN without a score (pricing max_rate). */
  probability: Float64Array;
  /** What pricing reads of each request (the features after the data rounds). */
  sources: FeatureSource[];
}

/** The thresholds of one param set, resolved once per trial. */
export interface TrialThresholds {
  lows: Float64Array;
  highs: Float64Array;
  /** Below it a request is skipped; -Infinity without a score. */
  minProbability: number;
}

const bound = (value: NumberOrParam | undefined, params: ParamValues, none: number): number =>
  value === undefined || referencedParam(value) === undefined ? none : resolveNumber(value, params);

export function trialThresholds(columns: TrialColumns, params: ParamValues): TrialThresholds {
  const count = columns.thresholds.length;
  const lows = new Float64Array(count);
  const highs = new Float64Array(count);
  columns.thresholds.forEach((column, index) => {
    lows[index] = bound(column.min, params, Number.NEGATIVE_INFINITY);
    highs[index] = bound(column.max, params, Number.POSITIVE_INFINITY);
  });
  const score = columns.source.definition.score;
  return { lows, highs, minProbability: score ? resolveNumber(score.min_probability, params) : Number.NEGATIVE_INFINITY };
}

/** Whether request `i` reaches pricing under `t` (the same tests, in effect, as evaluatePlan's). */
export function reachesPricing(columns: TrialColumns, t: TrialThresholds, i: number): boolean {
  if (columns.fixedPass[i] !== 1) return false;
  const { thresholds } = columns;
  for (let k = 0; k < thresholds.length; k += 1) {
    const value = (thresholds[k] as ThresholdColumn).values[i] as number;
    // A NaN (absent) value compares false both ways: what it does is in the fixed mask.
    if (value < (t.lows[k] as number) || value > (t.highs[k] as number)) return false;
  }
  // As evaluatePlan: skipped only when strictly below (a NaN probability is not).
  return !((columns.probability[i] as number) < t.minProbability);
}

/** Why `strategy`'s trials cannot run over columns, or undefined when they can. */
export function columnsUnsupported(strategy: CompiledStrategy): string | undefined {
  const source = columnSourceOf(strategy);
  if (!source) return 'a plugin strategy';
  const { definition } = source;
  if (strategy.dataPolicy.providers.length > 0) return 'it buys provider data (spend and a second score depend on the params)';
  // History filters wait for a data round the columns do not model; full backtests take it.
  if ((strategy.dataPolicy.borrowerHistory ?? 'never') !== 'never') return 'it fetches borrower history';
  if (!definition.pricing) return 'it has no pricing';
  // Each price depends on the fates learned before it: a replay in order, not columns priced once.
  if (definition.pricing.learning?.enabled === true) return 'its prices learn from the fates of its offers (pricing.learning)';
  if (definition.pricing.winners_curse?.enabled === true) return "its prices learn from its funded loans' fates (pricing.winners_curse)";
  if (definition.score?.calibration?.method === 'learned')
    return "its default level learns from its funded loans' payments (score.calibration method learned)";
  if (definition.score && findParamReferences({ ...definition.score, min_probability: 0 }).length > 0) return 'its score has params';
  for (const filter of definition.filters) {
    if (findParamReferences({ ...filter, min: undefined, max: undefined }).length > 0)
      return `filter ${filter.feature} has params outside min and max`;
  }
  return undefined;
}

/** The filter without its param-bound bounds: the part a trial's params cannot change. */
function fixedPart(filter: FilterDefinition): FilterDefinition {
  const fixed: FilterDefinition = { ...filter };
  if (referencedParam(filter.min) !== undefined) delete fixed.min;
  if (referencedParam(filter.max) !== undefined) delete fixed.max;
  return fixed;
}

/**
 * Evaluates every request of `recording` once for `strategy` (see the file's comment). Returns a
 * reason instead when a param-bound filter's feature is not a number for some request.
 */
export function buildTrialColumns(strategy: CompiledStrategy, recording: PreparedRecording): TrialColumns | string {
  const reason = columnsUnsupported(strategy);
  const source = columnSourceOf(strategy);
  if (reason !== undefined || !source) return reason ?? 'a plugin strategy';
  const { definition, table, model } = source;
  const params = { ...strategy.params };
  const n = recording.entries.length;
  const policy = definition.data.banking_data;
  const filters = definition.filters.map((filter) => ({
    filter,
    fixed: compileFilter(fixedPart(filter), params, table),
    bound: referencedParam(filter.min) !== undefined || referencedParam(filter.max) !== undefined,
  }));
  const free = filters.filter((f) => f.fixed.group !== 'banking' && f.fixed.group !== 'provider_a' && f.fixed.group !== 'provider_b');
  // The first round (before banking data is bought) only matters when it is bought after the free filters.
  const rounds = policy === 'after_filters' ? [free, filters] : [filters];
  const thresholdsOf = rounds.flatMap((round) => round.filter((f) => f.bound)).map((f) => ({ f, values: new Float64Array(n) }));
  const score = definition.score ? compileScore(definition.score, params, table, model) : undefined;
  const fixedPass = new Uint8Array(n);
  const probability = new Float64Array(n);
  const sources: FeatureSource[] = new Array<FeatureSource>(n);
  for (let i = 0; i < n; i += 1) {
    const entry = recording.entries[i];
    if (!entry) continue;
    const request = entry.line.loan_request;
    const before = table.valuesFor(request, {});
    // What the decide step's enrichment holds after buying banking data from the recording.
    const bought: Enrichment = policy === 'never' || !entry.line.data_aggs ? {} : { bankingData: entry.line.data_aggs };
    const after = table.valuesFor(request, bought);
    const roundValues = policy === 'after_filters' ? [before.values, after.values] : [policy === 'never' ? before.values : after.values];
    let pass = true;
    let column = 0;
    for (let r = 0; r < rounds.length; r += 1) {
      const values = roundValues[r] as FeatureValue[];
      for (const f of rounds[r] ?? []) {
        if (f.fixed.test(values) !== null) pass = false;
        if (!f.bound) continue;
        const value = values[f.fixed.slot] ?? null;
        if (value !== null && typeof value !== 'number') return `filter ${f.filter.feature} is not a number for request ${request.id}`;
        (thresholdsOf[column++] as { values: Float64Array }).values[i] = value === null ? Number.NaN : value;
      }
    }
    fixedPass[i] = pass ? 1 : 0;
    const final = roundValues.at(-1) as FeatureValue[];
    probability[i] = score ? probabilityOf(score.contributions(final)) : Number.NaN;
    sources[i] = after.source;
  }
  const thresholds = thresholdsOf.map(({ f, values }) => ({ values, min: f.filter.min, max: f.filter.max }));
  return { recording, source, fixedPass, thresholds, probability, sources };
}
