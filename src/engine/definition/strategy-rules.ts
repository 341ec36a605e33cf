/**
 * The rules of a strategy file a schema cannot state: references to params exist, param values
 * lie in their range, bins are ordered, filters compare a feature with values of its kind, and
 * a file either has score and pricing or names a plugin.
 */
import { didYouMean, type CrossFieldRule, type RuleProblem } from '../../config/index.js';
import { featureByName } from '../features/feature-catalogue.js';
import { findParamReferences, resolveNumber } from './param-values.js';
import { boundsInterval, numberBoundsAt, withinBounds } from './schema-bounds.js';
import { strategyFileSchema, type NumberOrParam, type StrategyDefinition } from './strategy-schema.js';

/** Keys whose values are literals, never param references. */
const LITERAL_KEYS = new Set(['in', 'not_in', 'description', 'params', '$schema', 'name', 'version', 'plugin']);

function paramReferences(definition: StrategyDefinition): RuleProblem[] {
  const names = Object.keys(definition.params);
  return Object.entries(definition)
    .filter(([key]) => !LITERAL_KEYS.has(key))
    .flatMap(([key, value]) => findParamReferences(value, [key]))
    .filter((reference) => !reference.path.some((segment) => LITERAL_KEYS.has(String(segment))))
    .filter((reference) => !(reference.name in definition.params))
    .map((reference) => ({
      path: reference.path,
      message: `unknown param "$${reference.name}"${didYouMean(reference.name, names, '$')}`,
    }));
}

function paramRanges(definition: StrategyDefinition): RuleProblem[] {
  return Object.entries(definition.params).flatMap(([name, spec]): RuleProblem[] => {
    const path = ['params', name];
    if (spec.min > spec.max) return [{ path: [...path, 'min'], message: `min ${spec.min} is above max ${spec.max}` }];
    const problems: RuleProblem[] = [];
    if (spec.value < spec.min || spec.value > spec.max) {
      problems.push({ path: [...path, 'value'], message: `value ${spec.value} is outside [${spec.min}, ${spec.max}]` });
    }
    if (spec.scale === 'log' && spec.min <= 0) problems.push({ path: [...path, 'min'], message: 'a log scale needs min > 0' });
    return problems;
  });
}

/**
 * A param used by a bounded field (a probability, a share, a rate the service accepts) must keep
 * its value and its whole tuning range within that field's bounds: the schema checks written
 * numbers, this checks the ones a param stands for.
 */
function paramBounds(definition: StrategyDefinition): RuleProblem[] {
  const references = Object.entries(definition)
    .filter(([key]) => !LITERAL_KEYS.has(key))
    .flatMap(([key, value]) => findParamReferences(value, [key]))
    .filter((reference) => !reference.path.some((segment) => LITERAL_KEYS.has(String(segment))));
  return references.flatMap((reference): RuleProblem[] => {
    const spec = definition.params[reference.name];
    const bounds = numberBoundsAt(strategyFileSchema, reference.path);
    if (spec === undefined || bounds === undefined) return [];
    const field = reference.path.join('.');
    return (['value', 'min', 'max'] as const)
      .filter((key) => !withinBounds(spec[key], bounds))
      .map((key) => ({
        path: ['params', reference.name, key],
        message: `${key} ${spec[key]} is outside ${boundsInterval(bounds)}, the bounds of ${field}, which uses $${reference.name}`,
      }));
  });
}

/** Resolves a number for a rule; references that do not resolve are reported by paramReferences. */
function valueOf(definition: StrategyDefinition, value: NumberOrParam | undefined): number | undefined {
  if (value === undefined) return undefined;
  const values = Object.fromEntries(Object.entries(definition.params).map(([name, spec]) => [name, spec.value]));
  try {
    return resolveNumber(value, values);
  } catch {
    return undefined;
  }
}

function filters(definition: StrategyDefinition): RuleProblem[] {
  return definition.filters.flatMap((filter, index): RuleProblem[] => {
    const path = ['filters', index];
    const kind = featureByName(filter.feature).kind;
    const problems: RuleProblem[] = [];
    const operators = [filter.min, filter.max, filter.in, filter.not_in, filter.required].filter((op) => op !== undefined);
    if (operators.length === 0) problems.push({ path, message: 'a filter needs one of min, max, in, not_in, required' });
    if ((filter.min !== undefined || filter.max !== undefined) && kind !== 'number') {
      problems.push({ path: [...path, 'feature'], message: `min and max need a number feature; ${filter.feature} is a ${kind}` });
    }
    const min = valueOf(definition, filter.min);
    const max = valueOf(definition, filter.max);
    if (min !== undefined && max !== undefined && min > max)
      problems.push({ path: [...path, 'min'], message: `min ${min} is above max ${max}` });
    for (const key of ['in', 'not_in'] as const) {
      filter[key]?.forEach((item, itemIndex) => {
        if (typeof item !== kind) {
          problems.push({
            path: [...path, key, itemIndex],
            message: `${filter.feature} is a ${kind}; ${JSON.stringify(item)} is a ${typeof item}`,
          });
        }
      });
    }
    return problems;
  });
}

function score(definition: StrategyDefinition): RuleProblem[] {
  if (definition.plugin !== undefined) return [];
  const problems: RuleProblem[] = [];
  // Offering the cap needs no estimate of repayment (the naive baseline): only max_rate may go without a score.
  if (!definition.score && definition.pricing?.mode !== 'max_rate') {
    problems.push({ path: [], message: 'missing "score" (or name a "plugin" module, or price with mode max_rate)' });
  }
  if (!definition.pricing) problems.push({ path: [], message: 'missing "pricing" (or name a "plugin" module)' });
  const { scorecard, logistic, model } = definition.score ?? {};
  if (definition.score && !scorecard && !logistic && model === undefined) {
    problems.push({ path: ['score'], message: 'score needs a scorecard, a logistic model, a trained model file (model) or several' });
  }
  scorecard?.terms.forEach((term, index) => {
    const path = ['score', 'scorecard', 'terms', index];
    const forms = [term.bins, term.levels, term.per_unit].filter((form) => form !== undefined).length;
    if (forms !== 1) problems.push({ path, message: 'a scorecard term needs exactly one of bins, levels, per_unit' });
    const kind = featureByName(term.feature).kind;
    if ((term.bins || term.per_unit !== undefined) && kind !== 'number') {
      problems.push({
        path: [...path, 'feature'],
        message: `bins and per_unit need a number feature; ${term.feature} is a ${kind} (use levels)`,
      });
    }
    const bins = term.bins ?? [];
    let previous = Number.NEGATIVE_INFINITY;
    bins.forEach((bin, binIndex) => {
      const below = valueOf(definition, bin.below);
      const last = binIndex === bins.length - 1;
      if (bin.below === undefined && !last)
        problems.push({ path: [...path, 'bins', binIndex], message: 'only the last bin may leave out "below"' });
      if (below !== undefined && below <= previous)
        problems.push({ path: [...path, 'bins', binIndex, 'below'], message: `bins must rise: ${below} follows ${previous}` });
      if (below !== undefined) previous = below;
    });
  });
  logistic?.terms.forEach((term, index) => {
    const kind = featureByName(term.feature).kind;
    if (kind !== 'number')
      problems.push({
        path: ['score', 'logistic', 'terms', index, 'feature'],
        message: `a logistic term needs a number feature; ${term.feature} is a ${kind}`,
      });
  });
  return [...problems, ...isotonicPoints(definition)];
}

/** An isotonic calibration must rise: each point's score probability above the last, its calibrated one not below. */
function isotonicPoints(definition: StrategyDefinition): RuleProblem[] {
  const written = definition.score?.calibration;
  // A learned calibration's seed is checked as the calibration it is.
  const seeded = written?.method === 'learned' ? written.seed : written;
  const at = written?.method === 'learned' ? ['score', 'calibration', 'seed'] : ['score', 'calibration'];
  if (seeded?.method !== 'isotonic') return [];
  const calibration = seeded;
  const problems: RuleProblem[] = [];
  calibration.points.forEach(([p, q], index) => {
    const previous = calibration.points[index - 1];
    if (previous === undefined) return;
    const path = [...at, 'points', index];
    if (p <= previous[0]) problems.push({ path: [...path, 0], message: `score probabilities must rise: ${p} follows ${previous[0]}` });
    if (q < previous[1])
      problems.push({ path: [...path, 1], message: `calibrated probabilities must not fall: ${q} follows ${previous[1]}` });
  });
  return problems;
}

function data(definition: StrategyDefinition): RuleProblem[] {
  const problems: RuleProblem[] = [];
  for (const slot of ['provider_a', 'provider_b'] as const) {
    const band = definition.data[slot]?.when_probability;
    const min = valueOf(definition, band?.min);
    const max = valueOf(definition, band?.max);
    if (min !== undefined && max !== undefined && min > max) {
      problems.push({ path: ['data', slot, 'when_probability', 'min'], message: `min ${min} is above max ${max}` });
    }
  }
  const a = definition.data.provider_a?.provider;
  if (a !== undefined && a === definition.data.provider_b?.provider) {
    problems.push({ path: ['data', 'provider_b', 'provider'], message: `provider_a and provider_b cannot both be "${a}"` });
  }
  return problems;
}

/**
 * Learning and the winner's curse correct the acceptance and the repayment expected-profit pricing
 * weighs; the other modes weigh neither.
 */
function expectedProfitOnly(key: 'learning' | 'winners_curse'): CrossFieldRule<StrategyDefinition> {
  return (definition) => {
    const pricing = definition.pricing;
    if (pricing?.[key] === undefined || pricing[key].enabled === false || pricing.mode === 'expected_profit') return [];
    const message = `${key} needs mode expected_profit (this pricing is ${pricing.mode}); remove it or set enabled: false`;
    return [{ path: ['pricing', key], message }];
  };
}

/** Level uncertainty prices the learned calibration's uncertainty into an expected-profit price: it needs both. */
function levelUncertainty(definition: StrategyDefinition): RuleProblem[] {
  const pricing = definition.pricing;
  if (pricing?.level_uncertainty === undefined) return [];
  const problems: RuleProblem[] = [];
  const path = ['pricing', 'level_uncertainty'];
  if (pricing.mode !== 'expected_profit')
    problems.push({ path, message: `level_uncertainty needs mode expected_profit (this pricing is ${pricing.mode}); remove it` });
  if (definition.score?.calibration?.method !== 'learned')
    problems.push({
      path,
      message:
        'level_uncertainty prices the uncertainty of a learned default level: set score.calibration to { method: learned }, or remove it',
    });
  return problems;
}

/** The history anchor reads the borrower's completed loans: the strategy must fetch them. */
function historyAnchor(definition: StrategyDefinition): RuleProblem[] {
  const calibration = definition.score?.calibration;
  if (calibration?.method !== 'learned' || calibration.history_anchor === undefined) return [];
  if ((definition.data.borrower_history ?? 'never') !== 'never') return [];
  return [
    {
      path: ['score', 'calibration', 'history_anchor'],
      message: "history_anchor reads the borrower's completed loans: set data.borrower_history to after_filters (or always), or remove it",
    },
  ];
}

export const STRATEGY_RULES: ReadonlyArray<CrossFieldRule<StrategyDefinition>> = [
  paramReferences,
  paramRanges,
  paramBounds,
  filters,
  score,
  data,
  historyAnchor,
  expectedProfitOnly('learning'),
  expectedProfitOnly('winners_curse'),
  levelUncertainty,
];
