/**
 * Evaluating a compiled YAML strategy on one request, in the order that spends least:
 *   1. banking data and borrower history first when their policy is `always`;
 *   2. free filters (request, borrower, affordability);
 *   3. borrower history (free) when its policy is `after_filters`, then the history filters;
 *   4. banking data when the policy is `after_filters`, then the banking filters;
 *   5. the score with what is known; each paid provider (flat-priced first) is asked for only
 *      when that probability is inside its band, i.e. where it could change the decision;
 *   6. provider filters, min_probability, pricing.
 * Data the caller could not get (Enrichment.unavailable) counts as absent, so the filters' and
 * terms' `missing` rules decide instead of asking again.
 *
 * A replay evaluates every request (most of them twice: before and after banking data), so the
 * path is kept lean: passing filters allocate nothing, and what a decision carries is built for
 * it and kept by nothing else.
 */
import type { LoanRequest } from '../../domain/index.js';
import type { DecisionReason } from '../../domain/decision-reason.js';
import type { DataPolicy, ProviderPolicy } from '../compiled-strategy.js';
import { formatRatio, type Contribution, type Decision, type StrategyIdentity } from '../decision.js';
import type { DataNeed, Enrichment } from '../enrichment.js';
import type { FeatureValue } from '../features/feature-definition.js';
import type { FeatureSource } from '../features/feature-source.js';
import type { CompiledFilter } from './compile-filters.js';
import type { CompiledPricing } from './compile-pricing.js';
import { probabilityOf, type CompiledScore } from './compile-score.js';
import type { FeatureTable } from './feature-table.js';
import type { AnchorUsed } from './learned-calibration.js';

/** Everything evaluation needs, built once per strategy and param set. */
export interface EvaluationPlan {
  identity: StrategyIdentity;
  params: Record<string, number>;
  automateFund: boolean;
  dataPolicy: DataPolicy;
  table: FeatureTable;
  /** Request, borrower and affordability filters: they need nothing fetched. */
  freeFilters: CompiledFilter[];
  /** Filters on history_* features: applied once the history is fetched (or known unavailable). */
  historyFilters: CompiledFilter[];
  bankingFilters: CompiledFilter[];
  providerFilters: CompiledFilter[];
  /** Absent only for pricing mode max_rate, which offers the cap without an estimate. */
  score: CompiledScore | undefined;
  pricing: CompiledPricing;
}

/** The reasons of the filters that fail, or undefined when all pass (nothing allocated then). */
function failures(filters: readonly CompiledFilter[], values: readonly FeatureValue[]): DecisionReason[] | undefined {
  let reasons: DecisionReason[] | undefined;
  for (const filter of filters) {
    const reason = filter.test(values);
    if (reason !== null) (reasons ??= []).push(reason);
  }
  return reasons;
}

function providerPresent(source: FeatureSource, provider: ProviderPolicy): boolean {
  return provider.slot === 'provider_a' ? source.providerA !== undefined : source.providerB !== undefined;
}

function providerNeed(provider: ProviderPolicy): DataNeed {
  return { kind: 'provider', provider: provider.provider, pricing: provider.pricing, costCents: provider.costCents };
}

/** A provider's reason about buying its score at `probability`: within its band it is bought, outside not. */
function providerReason(
  provider: ProviderPolicy,
  probability: number,
  code: 'data_provider_needed' | 'data_provider_not_bought',
): DecisionReason {
  const band = { min: formatRatio(provider.whenProbability.min), max: formatRatio(provider.whenProbability.max) };
  return { code, slot: provider.slot, provider: provider.provider, probability: formatRatio(probability), ...band };
}

/** No provider is unavailable (shared: read only). */
const NO_PROVIDERS: readonly string[] = [];

/** The history anchor's reason (learned-calibration.ts, AnchorUsed). */
function anchorReason(anchor: AnchorUsed): DecisionReason {
  return {
    code: 'score_history_anchor',
    loans: String(anchor.loans),
    implied: formatRatio(anchor.implied),
    weight: anchor.weight.toFixed(2),
  };
}

/** The reasons of a priced decision: the data reasons, the score's, then pricing's (one array, no spreads). */
function withPriceReasons(
  dataReasons: DecisionReason[],
  scoreReasons: readonly DecisionReason[],
  priceReasons: readonly DecisionReason[],
): DecisionReason[] {
  for (const reason of scoreReasons) dataReasons.push(reason);
  for (const reason of priceReasons) dataReasons.push(reason);
  return dataReasons;
}

/**
 * A decision with the features record of `values`; `extra` is copied after the common fields,
 * in its order (the key order decisions have always had).
 */
function decisionOf(
  plan: EvaluationPlan,
  values: readonly FeatureValue[],
  action: Decision['action'],
  reasons: DecisionReason[],
  contributions: Contribution[],
  extra?: Partial<Decision>,
): Decision {
  const decision: Decision = {
    action,
    automateFund: plan.automateFund,
    reasons,
    contributions,
    features: plan.table.record(values),
    strategy: plan.identity,
    params: plan.params,
  };
  return extra === undefined ? decision : Object.assign(decision, extra);
}

export function evaluatePlan(plan: EvaluationPlan, request: LoanRequest, enrichment: Enrichment): Decision {
  const computed = plan.table.valuesFor(request, enrichment);
  const { source, values } = computed;

  const policy = plan.dataPolicy.bankingData;
  const bankingPending = enrichment.bankingData === undefined && policy !== 'never' && enrichment.unavailable?.bankingData !== true;
  const historyPolicy = plan.dataPolicy.borrowerHistory ?? 'never';
  const historyPending =
    enrichment.borrowerHistory === undefined && historyPolicy !== 'never' && enrichment.unavailable?.borrowerHistory !== true;
  const first = firstNeeds(bankingPending && policy === 'always', historyPending && historyPolicy === 'always');
  if (first) return needing(plan, values, first, 'policy always');
  const free = failures(plan.freeFilters, values);
  if (free) return decisionOf(plan, values, 'skip', free, []);
  if (historyPending) {
    // Without filters on the history, nothing it says can spare the banking data: both in one round.
    const both = bankingPending && plan.historyFilters.length === 0;
    return needing(plan, values, both ? ['borrower_history', 'banking_data'] : ['borrower_history'], 'free filters passed');
  }
  const history = failures(plan.historyFilters, values);
  if (history) return decisionOf(plan, values, 'skip', history, []);
  if (bankingPending) return needing(plan, values, ['banking_data'], 'free filters passed');
  const banking = failures(plan.bankingFilters, values);
  if (banking) return decisionOf(plan, values, 'skip', banking, []);

  if (!plan.score) return offerWithoutScore(plan, source, values);
  const contributions = plan.score.contributions(values, source);
  const probability = probabilityOf(contributions);
  // A learned calibration: which one gave the probability, and its uncertainty for pricing.
  const level = plan.score.learned?.levelOf(contributions, source);
  // What the borrower's completed loans added to the level, said beside the score.
  const anchorReasons: DecisionReason[] = level?.anchor === undefined ? [] : [anchorReason(level.anchor)];
  const scored: Partial<Decision> = level === undefined ? { probability } : { probability, calibration: level.used };
  const dataReasons: DecisionReason[] = [];
  const unavailable = enrichment.unavailable?.providers ?? NO_PROVIDERS;
  for (const provider of plan.dataPolicy.providers) {
    if (providerPresent(source, provider)) continue;
    const { min, max } = provider.whenProbability;
    if (unavailable.includes(provider.provider)) {
      dataReasons.push({ code: 'data_provider_unavailable', slot: provider.slot, provider: provider.provider });
    } else if (probability >= min && probability <= max) {
      return decisionOf(plan, values, 'needs_data', [providerReason(provider, probability, 'data_provider_needed')], contributions, {
        needs: [providerNeed(provider)],
        ...scored,
      });
    } else {
      dataReasons.push(providerReason(provider, probability, 'data_provider_not_bought'));
    }
  }
  const providerFailures = failures(plan.providerFilters, values);
  if (providerFailures) return decisionOf(plan, values, 'skip', [...dataReasons, ...providerFailures], contributions, scored);

  const probabilityText = formatRatio(probability);
  if (probability < plan.score.minProbability) {
    const below: DecisionReason = { code: 'score_below_min', probability: probabilityText, min: formatRatio(plan.score.minProbability) };
    return decisionOf(plan, values, 'skip', [...dataReasons, ...anchorReasons, below], contributions, scored);
  }
  const scoreReason: DecisionReason = { code: 'score', probability: probabilityText };
  // Asked for the probability alone (Enrichment.probabilityOnly): no price search.
  if (enrichment.probabilityOnly === true)
    return decisionOf(plan, values, 'skip', withPriceReasons(dataReasons, [scoreReason, ...anchorReasons], []), contributions, scored);
  const price = plan.pricing(source, probability, enrichment.cash, level);
  const reasons = withPriceReasons(dataReasons, [scoreReason, ...anchorReasons], price.reasons);
  if (!price.ok)
    return decisionOf(
      plan,
      values,
      'skip',
      reasons,
      contributions,
      price.requiredRate === undefined ? scored : { ...scored, requiredRate: price.requiredRate },
    );
  const offer = decisionOf(plan, values, 'offer', reasons, contributions, scored);
  offer.rate = price.rate;
  offer.expectedReturn = price.expectedReturn;
  offer.requiredRate = price.requiredRate;
  if (price.curve !== undefined) offer.priceCurve = price.curve;
  const learned = price.curve?.learning;
  if (learned !== undefined)
    offer.marketResponse = { version: learned.version, evidence: learned.evidence, explored: learned.exploration !== undefined };
  if (price.modelled !== undefined) offer.modelled = price.modelled;
  return offer;
}

/** The data needs that are only their kind (a provider's need says which and at what price). */
type PlainNeed = Exclude<DataNeed['kind'], 'provider'>;

/** What a strategy asks for before any filter (policy `always`), or undefined when nothing. */
function firstNeeds(banking: boolean, history: boolean): PlainNeed[] | undefined {
  if (!banking && !history) return undefined;
  return banking && history ? ['banking_data', 'borrower_history'] : [banking ? 'banking_data' : 'borrower_history'];
}

/** A needs_data decision asking for `kinds`, in order, each with the reason `why`. */
function needing(plan: EvaluationPlan, values: readonly FeatureValue[], kinds: readonly PlainNeed[], why: string): Decision {
  const reasons = kinds.map((what): DecisionReason => ({ code: 'data_needed', what, why }));
  return decisionOf(plan, values, 'needs_data', reasons, [], { needs: kinds.map((kind) => ({ kind })) });
}

/** A strategy without a score (pricing mode max_rate): provider filters, then the price. */
function offerWithoutScore(plan: EvaluationPlan, source: FeatureSource, values: readonly FeatureValue[]): Decision {
  const providerFailures = failures(plan.providerFilters, values);
  if (providerFailures) return decisionOf(plan, values, 'skip', providerFailures, []);
  const price = plan.pricing(source, Number.NaN);
  if (!price.ok) return decisionOf(plan, values, 'skip', price.reasons, []);
  return decisionOf(plan, values, 'offer', price.reasons, [], { rate: price.rate });
}
