/**
 * Features read from data the strategy never asks for: a history_* filter without
 * `data.borrower_history`, a banking filter with `banking_data: never`, a provider feature without
 * that provider. Such a feature is always absent, so its filter fails every request (`missing:
 * fail`, the default) or never tests anything, and its score term always gives its `missing`
 * value. Legal, so `strategy check` warns rather than refuses.
 */
import type { CompiledStrategy, DataPolicy } from '../compiled-strategy.js';
import { featureByName } from '../features/feature-catalogue.js';
import type { FeatureGroup } from '../features/feature-definition.js';
import { columnSourceOf } from './compile-strategy.js';

/** One feature read (in `where`) from a data source the strategy never asks for. */
export interface DataSourceWarning {
  feature: string;
  /** `filters[2]`, `score.scorecard.terms[0]`, `score.logistic.terms[1]` or `score.model`. */
  where: string;
  message: string;
}

interface MissingSource {
  /** The data source, as a user reads it. */
  source: string;
  /** The setting that would fetch it. */
  setting: string;
}

/** What fetches a group's data, or undefined when the policy already does (or the group needs nothing). */
function missingSource(group: FeatureGroup, policy: DataPolicy): MissingSource | undefined {
  const hasProvider = (slot: string): boolean => policy.providers.some((provider) => provider.slot === slot);
  switch (group) {
    case 'history':
      return (policy.borrowerHistory ?? 'never') === 'never'
        ? { source: 'borrower history', setting: 'data: { borrower_history: after_filters }' }
        : undefined;
    case 'banking':
      return policy.bankingData === 'never' ? { source: 'banking data', setting: 'data: { banking_data: after_filters }' } : undefined;
    case 'provider_a':
    case 'provider_b':
      return hasProvider(group)
        ? undefined
        : { source: `${group.replace('_', ' ')} scores`, setting: `data.${group} (provider, when_probability)` };
    default:
      return undefined;
  }
}

/** Where each feature is read: filters and score terms by index; the rest (a model file's) as score.model. */
interface Reader {
  feature: string;
  where: string;
  kind: string;
  /** What an always-absent value does there. */
  effect: string;
}

function readers(strategy: CompiledStrategy): Reader[] {
  const definition = columnSourceOf(strategy)?.definition;
  const found: Reader[] = [];
  definition?.filters.forEach((filter, index) => {
    const skips = filter.missing === 'fail' || filter.required === true;
    found.push({
      feature: filter.feature,
      where: `filters[${index}]`,
      kind: 'filter',
      effect: skips ? 'it skips every request' : 'it never tests anything',
    });
  });
  const terms = [
    ...(definition?.score?.scorecard?.terms ?? []).map((term, index) => ({
      feature: term.feature,
      where: `score.scorecard.terms[${index}]`,
    })),
    ...(definition?.score?.logistic?.terms ?? []).map((term, index) => ({
      feature: term.feature,
      where: `score.logistic.terms[${index}]`,
    })),
  ];
  for (const term of terms) found.push({ ...term, kind: 'score term', effect: 'it always gives its missing value' });
  const named = new Set(found.map((reader) => reader.feature));
  for (const feature of strategy.features) {
    if (!named.has(feature))
      found.push({ feature, where: 'score.model', kind: 'model feature', effect: 'the model always sees it missing' });
  }
  return found;
}

/** Every feature `strategy` reads from data it never asks for; empty for plugins (their reads are unknown). */
export function dataSourceWarnings(strategy: CompiledStrategy): DataSourceWarning[] {
  const warnings: DataSourceWarning[] = [];
  for (const { feature, where, kind, effect } of readers(strategy)) {
    const missing = missingSource(featureByName(feature).group, strategy.dataPolicy);
    if (!missing) continue;
    warnings.push({
      feature,
      where,
      message: `${where}: ${kind} ${feature} reads ${missing.source}, which this strategy never asks for, so ${effect}; add ${missing.setting}`,
    });
  }
  return warnings;
}
