/**
 * Compiling a validated strategy definition into a CompiledStrategy: params resolved, features
 * given slots, filters sorted by the data they wait for, score and pricing turned into
 * closures. Done once per strategy and param set; evaluation then does no YAML or I/O work.
 */
import { createHash } from 'node:crypto';
import type { CompiledStrategy } from '../compiled-strategy.js';
import { mergeParams } from '../compiled-strategy.js';
import type { StrategyDefinition } from '../definition/strategy-schema.js';
import { compileDataPolicy } from './compile-data-policy.js';
import { compileFilter, type CompiledFilter } from './compile-filters.js';
import { compileEventPrefilter } from './event-prefilter.js';
import { compilePricing } from './compile-pricing.js';
import { compileScore } from './compile-score.js';
import { FeatureTable } from './feature-table.js';
import type { LoadedModel } from '../model/load-model-file.js';
import { evaluatePlan, type EvaluationPlan } from './yaml-evaluation.js';

/** sha256 of a strategy's text, 16 hex digits: enough to tell versions of a file apart. */
export function contentHashOf(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/**
 * The hash of a strategy and the model file it scores with: a retrained model changes every
 * decision's content hash even when the YAML is untouched. Without a model, the text's hash.
 */
export function strategyHashOf(text: string, model: LoadedModel | undefined): string {
  return contentHashOf(model === undefined ? text : `${text}\n\0model sha256:${model.sha256}`);
}

function defaultParams(definition: StrategyDefinition): Record<string, number> {
  return Object.fromEntries(Object.entries(definition.params).map(([name, spec]) => [name, spec.value]));
}

function buildPlan(
  definition: StrategyDefinition,
  identity: EvaluationPlan['identity'],
  params: Record<string, number>,
  model: LoadedModel | undefined,
): EvaluationPlan {
  const { score, pricing } = definition;
  if (!pricing || (!score && pricing.mode !== 'max_rate')) throw new RangeError(`strategy "${definition.name}" has no score or pricing to compile`);
  const table = new FeatureTable();
  const filters = definition.filters.map((filter) => compileFilter(filter, params, table));
  const byGroup = (test: (filter: CompiledFilter) => boolean): CompiledFilter[] => filters.filter(test);
  const paid = (filter: CompiledFilter): boolean => filter.group === 'provider_a' || filter.group === 'provider_b';
  return {
    identity,
    params,
    automateFund: definition.automate_fund,
    dataPolicy: compileDataPolicy(definition.data, params),
    table,
    freeFilters: byGroup((filter) => filter.group !== 'banking' && !paid(filter)),
    bankingFilters: byGroup((filter) => filter.group === 'banking'),
    providerFilters: byGroup(paid),
    score: score ? compileScore(score, params, table, model) : undefined,
    // The market response fitted with the model; the strategy's own `pricing.market` overrides it.
    pricing: compilePricing(pricing, params, model?.market),
  };
}

/**
 * Compiles a validated definition. `source.text` (the file's text) gives the content hash;
 * without it the hash is taken over the definition itself. `source.model` is the file
 * `score.model` names, already loaded (its sha256 joins the hash). Throws RangeError on an
 * unknown param override, or when the score names a model and none is given.
 */
export function compileStrategy(
  definition: StrategyDefinition,
  source: { file: string; text?: string; model?: LoadedModel },
  paramOverrides: Readonly<Record<string, number>> = {},
): CompiledStrategy {
  const contentHash = strategyHashOf(source.text ?? JSON.stringify(definition), source.model);
  const identity = { name: definition.name, version: definition.version, contentHash };
  const build = (params: Record<string, number>): CompiledStrategy => {
    const plan = buildPlan(definition, identity, params, source.model);
    return {
      ...identity,
      description: definition.description,
      file: source.file,
      kind: 'yaml',
      params,
      paramSpecs: definition.params,
      dataPolicy: plan.dataPolicy,
      automateFund: definition.automate_fund,
      ...(definition.priority === undefined ? {} : { priority: definition.priority }),
      features: plan.table.names,
      evaluate: (request, enrichment) => evaluatePlan(plan, request, enrichment),
      prefilterEvent: compileEventPrefilter(definition.filters, params),
      withParams: (overrides) => build(mergeParams(params, definition.params, overrides)),
    };
  };
  return build(mergeParams(defaultParams(definition), definition.params, paramOverrides));
}
