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
 */
import type { LoanRequest } from '../../service/index.js';
import type { DataPolicy, ProviderPolicy } from '../compiled-strategy.js';
import { formatRatio, type Contribution, type Decision, type StrategyIdentity } from '../decision.js';
import type { DataNeed, Enrichment } from '../enrichment.js';
import type { FeatureValue } from '../features/feature-definition.js';
import type { FeatureSource } from '../features/feature-source.js';
import type { CompiledFilter } from './compile-filters.js';
import type { CompiledPricing } from './compile-pricing.js';
import { probabilityOf, type CompiledScore } from './compile-score.js';
import type { FeatureTable } from './feature-table.js';

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

function failures(filters: readonly CompiledFilter[], values: readonly FeatureValue[]): string[] {
  const reasons: string[] = [];
  for (const filter of filters) {
    const reason = filter.test(values);
    if (reason !== null) reasons.push(reason);
  }
  return reasons;
}

function providerPresent(source: FeatureSource, provider: ProviderPolicy): boolean {
  return provider.slot === 'provider_a' ? source.providerA !== undefined : source.providerB !== undefined;
}

function providerNeed(provider: ProviderPolicy): DataNeed {
  return { kind: 'provider', provider: provider.provider, pricing: provider.pricing, costCents: provider.costCents };
}

export function evaluatePlan(plan: EvaluationPlan, request: LoanRequest, enrichment: Enrichment): Decision {
  const computed = plan.table.valuesFor(request, enrichment);
  const { source, values } = computed;
  const decide = (action: Decision['action'], reasons: string[], extra: Partial<Decision> = {}): Decision => ({
    action,
    automateFund: plan.automateFund,
    reasons,
    contributions: [],
    features: plan.table.recordOf(computed),
    strategy: plan.identity,
    params: plan.params,
    ...extra,
  });

  const policy = plan.dataPolicy.bankingData;
  const bankingPending = enrichment.bankingData === undefined && policy !== 'never' && enrichment.unavailable?.bankingData !== true;
  const historyPolicy = plan.dataPolicy.borrowerHistory ?? 'never';
  const historyPending =
    enrichment.borrowerHistory === undefined && historyPolicy !== 'never' && enrichment.unavailable?.borrowerHistory !== true;
  const first = firstNeeds(bankingPending && policy === 'always', historyPending && historyPolicy === 'always');
  if (first) return decide('needs_data', first.reasons, { needs: first.needs });
  const free = failures(plan.freeFilters, values);
  if (free.length > 0) return decide('skip', free);
  if (historyPending) {
    return decide('needs_data', ['data borrower_history needed (free filters passed)'], { needs: [{ kind: 'borrower_history' }] });
  }
  const history = failures(plan.historyFilters, values);
  if (history.length > 0) return decide('skip', history);
  if (bankingPending) {
    return decide('needs_data', ['data banking_data needed (free filters passed)'], { needs: [{ kind: 'banking_data' }] });
  }
  const banking = failures(plan.bankingFilters, values);
  if (banking.length > 0) return decide('skip', banking);

  if (!plan.score) return offerWithoutScore(plan, source, values, decide);
  const contributions: Contribution[] = plan.score.contributions(values);
  const probability = probabilityOf(contributions);
  const dataReasons: string[] = [];
  const unavailable = enrichment.unavailable?.providers ?? [];
  for (const provider of plan.dataPolicy.providers) {
    if (providerPresent(source, provider)) continue;
    const { min, max } = provider.whenProbability;
    const band = `[${formatRatio(min)}, ${formatRatio(max)}]`;
    if (unavailable.includes(provider.provider)) {
      dataReasons.push(`data ${provider.slot} ${provider.provider} unavailable`);
    } else if (probability >= min && probability <= max) {
      return decide('needs_data', [`data ${provider.slot} ${provider.provider} needed: probability ${formatRatio(probability)} in ${band}`], {
        needs: [providerNeed(provider)],
        probability,
        contributions,
      });
    } else {
      dataReasons.push(`data ${provider.slot} ${provider.provider} not bought: probability ${formatRatio(probability)} outside ${band}`);
    }
  }
  const providerFailures = failures(plan.providerFilters, values);
  if (providerFailures.length > 0) return decide('skip', [...dataReasons, ...providerFailures], { probability, contributions });

  const scoreReason = `score probability ${formatRatio(probability)}`;
  if (probability < plan.score.minProbability) {
    return decide('skip', [...dataReasons, `${scoreReason} < min_probability ${formatRatio(plan.score.minProbability)}`], {
      probability,
      contributions,
    });
  }
  const price = plan.pricing(source, probability);
  const reasons = [...dataReasons, scoreReason, ...price.reasons];
  const requiredRate = price.requiredRate === undefined ? {} : { requiredRate: price.requiredRate };
  if (!price.ok) return decide('skip', reasons, { probability, contributions, ...requiredRate });
  return decide('offer', reasons, {
    probability,
    contributions,
    rate: price.rate,
    expectedReturn: price.expectedReturn,
    requiredRate: price.requiredRate,
    ...(price.curve === undefined ? {} : { priceCurve: price.curve }),
  });
}

/** What a strategy asks for before any filter (policy `always`), or undefined when nothing. */
function firstNeeds(banking: boolean, history: boolean): { needs: DataNeed[]; reasons: string[] } | undefined {
  if (!banking && !history) return undefined;
  const needs: DataNeed[] = [];
  const reasons: string[] = [];
  if (banking) {
    needs.push({ kind: 'banking_data' });
    reasons.push('data banking_data needed (policy always)');
  }
  if (history) {
    needs.push({ kind: 'borrower_history' });
    reasons.push('data borrower_history needed (policy always)');
  }
  return { needs, reasons };
}

/** A strategy without a score (pricing mode max_rate): provider filters, then the price. */
function offerWithoutScore(
  plan: EvaluationPlan,
  source: FeatureSource,
  values: readonly FeatureValue[],
  decide: (action: Decision['action'], reasons: string[], extra?: Partial<Decision>) => Decision,
): Decision {
  const providerFailures = failures(plan.providerFilters, values);
  if (providerFailures.length > 0) return decide('skip', providerFailures);
  const price = plan.pricing(source, Number.NaN);
  if (!price.ok) return decide('skip', price.reasons);
  return decide('offer', price.reasons, { rate: price.rate });
}
