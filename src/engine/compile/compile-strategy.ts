/**
 * Compiling a validated strategy definition into a CompiledStrategy: params resolved, features
 * given slots, filters sorted by the data they wait for, score and pricing turned into
 * closures. Done once per strategy and param set; evaluation then does no YAML or I/O work.
 */
import { createHash } from 'node:crypto';
import { mergeParams, type CompiledStrategy, type MarketPartSource, type MarketSource } from '../compiled-strategy.js';
import type { PricingDefinition, StrategyDefinition } from '../definition/strategy-schema.js';
import type { AnchorCosts } from './learned-calibration.js';
import { compileDataPolicy } from './compile-data-policy.js';
import { compileFilter, type CompiledFilter } from './compile-filters.js';
import { compileEventPrefilter } from './event-prefilter.js';
import { compileListRestriction } from './compile-list-restriction.js';
import { compilePricing, type CompiledPricing, type PriceResult } from './compile-pricing.js';
import { compileScore } from './compile-score.js';
import { findParamReferences, resolveNumber } from '../definition/param-values.js';
import { FeatureTable } from './feature-table.js';
import type { LoadedModel } from '../model/load-model-file.js';
import { layerMarkets, type LoadedMarketFile } from '../market-file.js';
import type { PartialMarketResponse } from '../market-response.js';
import type { CashPosition } from '../pricing/cash-hurdle.js';
import { evaluatePlan, type EvaluationPlan } from './yaml-evaluation.js';

/** sha256 of a strategy's text, 16 hex digits: enough to tell versions of a file apart. */
export function contentHashOf(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/**
 * The hash of a strategy and the model file it scores with: a retrained model changes every
 * decision's content hash even when the YAML is untouched. Without a model, the text's hash.
 */
function strategyHashOf(text: string, model: LoadedModel | undefined, market?: LoadedMarketFile): string {
  const withModel = model === undefined ? text : `${text}\n\0model sha256:${model.sha256}`;
  return contentHashOf(market === undefined ? withModel : `${withModel}\n\0market sha256:${market.sha256}`);
}

/** Where an expected-profit strategy's market response comes from; undefined for other pricing. */
function marketSourceOf(
  definition: StrategyDefinition,
  model: LoadedModel | undefined,
  market: LoadedMarketFile | undefined,
): MarketSource | undefined {
  const pricing = definition.pricing;
  if (pricing?.mode !== 'expected_profit') return undefined;
  // Each part from the top layer that sets it: the strategy's numbers, the market file, the model.
  const part = (explicit: unknown, file: unknown, fromModel: unknown): MarketPartSource =>
    explicit !== undefined ? 'explicit' : file !== undefined ? 'file' : fromModel !== undefined ? 'model' : 'default';
  const competition = part(pricing.market?.competition, market?.market.competition, model?.market?.competition);
  const takeUp = part(pricing.market?.take_up, market?.market.takeUp, model?.market?.takeUp);
  return competition === takeUp ? competition : `${competition} competition, ${takeUp} take-up`;
}

/** Each param's value as the definition writes it. */
export function defaultParams(definition: StrategyDefinition): Record<string, number> {
  return Object.fromEntries(Object.entries(definition.params).map(([name, spec]) => [name, spec.value]));
}

/**
 * What the param sets of one definition share (tuning builds hundreds): one feature table (the
 * slots do not depend on params, so computed features are reused), and the pricing's closures
 * for param sets that give them the same inputs, each remembering its results per request.
 * Evaluation is pure, so a remembered result is the one it would compute again. The score is
 * not remembered: summing a request's terms costs less than looking a remembered sum up (and
 * keeping a hundred thousand contribution lines alive cost more in garbage collection).
 */
interface SharedParts {
  table: FeatureTable;
  /**
   * Pricing results are large (reasons, the price curve) and a tune changes the pricing params at
   * nearly every trial: one param set's pricing is kept, the last made (a backtest's draws and
   * sensitivity runs repeat one param set, and then price nothing twice).
   */
  lastPricing?: { key: string; pricing: CompiledPricing };
}

/** The pricing `section` compiles to under `params`: the last one made while the params it names are equal. */
function sharedPricing(
  shared: SharedParts,
  section: unknown,
  params: Record<string, number>,
  make: () => CompiledPricing,
): CompiledPricing {
  const key = JSON.stringify(findParamReferences(section).map((ref) => params[ref.name] ?? null));
  if (shared.lastPricing?.key !== key) shared.lastPricing = { key, pricing: make() };
  return shared.lastPricing.pricing;
}

/** A price kept on its feature source: which pricing made it, at which probability. */
interface RememberedPrice {
  pricing: CompiledPricing;
  probability: number;
  /** The cash position it was priced with (a hurdle that follows cash moves with it). */
  cash: CashPosition | undefined;
  result: PriceResult;
}

/**
 * Prices remembered per request: the last pricing, probability and result, kept on the feature
 * source (one per request and data objects, held by the feature table) rather than in a map of
 * its own, which cost a weak entry and a wrapper per request in garbage collection.
 */
function rememberedPricing(pricing: CompiledPricing): CompiledPricing {
  const remembered: CompiledPricing = (source, probability, cash) => {
    const last = source.lastPrice as RememberedPrice | undefined;
    if (last !== undefined && last.pricing === remembered && Object.is(last.probability, probability) && last.cash === cash)
      return last.result;
    const result = pricing(source, probability, cash);
    if (last === undefined) {
      const kept: RememberedPrice = { pricing: remembered, probability, cash, result };
      source.lastPrice = kept;
    } else {
      last.pricing = remembered;
      last.probability = probability;
      last.cash = cash;
      last.result = result;
    }
    return result;
  };
  return remembered;
}

/** The lender's costs a learned calibration's history anchor reads past prices after: the pricing's. */
function anchorCostsOf(pricing: PricingDefinition, params: Record<string, number>): AnchorCosts {
  return {
    targetReturn: resolveNumber(pricing.target_return, params),
    recovery: resolveNumber(pricing.recovery, params),
    servicingCost: resolveNumber(pricing.servicing_cost, params),
    fundLoanAmountOnly: pricing.funded_amount === 'loan_amount',
  };
}

function buildPlan(
  definition: StrategyDefinition,
  identity: EvaluationPlan['identity'],
  params: Record<string, number>,
  fitted: PartialMarketResponse | undefined,
  model: LoadedModel | undefined,
  shared: SharedParts,
): EvaluationPlan {
  const { score, pricing } = definition;
  if (!pricing || (!score && pricing.mode !== 'max_rate'))
    throw new RangeError(`strategy "${definition.name}" has no score or pricing to compile`);
  const table = shared.table;
  const filters = definition.filters.map((filter) => compileFilter(filter, params, table));
  const byGroup = (test: (filter: CompiledFilter) => boolean): CompiledFilter[] => filters.filter(test);
  const paid = (filter: CompiledFilter): boolean => filter.group === 'provider_a' || filter.group === 'provider_b';
  return {
    identity,
    params,
    automateFund: definition.automate_fund,
    dataPolicy: compileDataPolicy(definition.data, params),
    table,
    freeFilters: byGroup((filter) => filter.group !== 'banking' && filter.group !== 'history' && !paid(filter)),
    historyFilters: byGroup((filter) => filter.group === 'history'),
    bankingFilters: byGroup((filter) => filter.group === 'banking'),
    providerFilters: byGroup(paid),
    score: score ? compileScore(score, params, table, model, definition.name, anchorCostsOf(pricing, params)) : undefined,
    // The market file's (else the model's) fitted response; the strategy's own `pricing.market` overrides it.
    // A learning pricing answers from the learner's current state, so its prices are not remembered.
    pricing: sharedPricing(shared, pricing, params, () =>
      pricing.learning?.enabled === true || pricing.winners_curse?.enabled === true || pricing.level_uncertainty !== undefined
        ? compilePricing(pricing, params, fitted, definition.name)
        : rememberedPricing(compilePricing(pricing, params, fitted)),
    ),
  };
}

/**
 * What tuning's column path (src/backtest/tune/trial-columns.ts) needs of a compiled YAML
 * strategy to evaluate its filters, score and pricing once per request into columns: the
 * definition, the model file it scores with and its (shared) feature table. Plugins have none.
 */
export interface StrategyColumnSource {
  definition: StrategyDefinition;
  model: LoadedModel | undefined;
  /** The market response fitted for it (market file over model), under its own `pricing.market`. */
  fittedMarket: PartialMarketResponse | undefined;
  table: FeatureTable;
}

const columnSources = new WeakMap<CompiledStrategy, StrategyColumnSource>();

/** The column source of a strategy compileStrategy built (any param set), or undefined (plugins). */
export function columnSourceOf(strategy: CompiledStrategy): StrategyColumnSource | undefined {
  return columnSources.get(strategy);
}

/**
 * Compiles a validated definition. `source.text` (the file's text) gives the content hash;
 * without it the hash is taken over the definition itself. `source.model` is the file
 * `score.model` names, already loaded (its sha256 joins the hash). Throws RangeError on an
 * unknown param override, or when the score names a model and none is given.
 */
export function compileStrategy(
  definition: StrategyDefinition,
  source: { file: string; text?: string; model?: LoadedModel; market?: LoadedMarketFile },
  paramOverrides: Readonly<Record<string, number>> = {},
): CompiledStrategy {
  const contentHash = strategyHashOf(source.text ?? JSON.stringify(definition), source.model, source.market);
  // The fitted market under the strategy's own numbers: the market file's over the model's.
  const fitted = layerMarkets(source.model?.market, source.market?.market);
  const marketSource = marketSourceOf(definition, source.model, source.market);
  const identity = { name: definition.name, version: definition.version, contentHash };
  const shared: SharedParts = { table: new FeatureTable() };
  const build = (params: Record<string, number>): CompiledStrategy => {
    const plan = buildPlan(definition, identity, params, fitted, source.model, shared);
    const compiled: CompiledStrategy = {
      ...identity,
      description: definition.description,
      file: source.file,
      kind: 'yaml',
      params,
      paramSpecs: definition.params,
      dataPolicy: plan.dataPolicy,
      automateFund: definition.automate_fund,
      ...(definition.priority === undefined ? {} : { priority: definition.priority }),
      ...(definition.shadow ? { shadow: true } : {}),
      ...(marketSource === undefined ? {} : { marketSource }),
      ...(definition.pricing?.cash_hurdle?.enabled === true ? { followsCash: true } : {}),
      features: plan.table.names,
      evaluate: (request, enrichment) => evaluatePlan(plan, request, enrichment),
      prefilterEvent: compileEventPrefilter(definition.filters, params),
      listRestriction: compileListRestriction(definition.filters, params),
      withParams: (overrides) => build(mergeParams(params, definition.params, overrides)),
    };
    columnSources.set(compiled, { definition, model: source.model, fittedMarket: fitted, table: shared.table });
    return compiled;
  };
  return build(mergeParams(defaultParams(definition), definition.params, paramOverrides));
}
