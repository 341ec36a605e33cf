/**
 * Filters compiled to closures over a feature slot. A test returns null when the request
 * passes, or the reason it fails (filter_failed: "filter credit_score_low < 600"). A filter's
 * reasons depend on the filter alone, so each is made once, when it is compiled.
 */
import type { FilterReason } from '../../domain/decision-reason.js';
import type { FilterDefinition } from '../definition/strategy-schema.js';
import { resolveNumber } from '../definition/param-values.js';
import type { FeatureGroup, FeatureValue } from '../features/feature-definition.js';
import type { FeatureTable } from './feature-table.js';

export interface CompiledFilter {
  slot: number;
  group: FeatureGroup;
  test(values: readonly FeatureValue[]): FilterReason | null;
}

function listText(items: ReadonlyArray<number | string | boolean>): string {
  return `[${items.map(String).join(', ')}]`;
}

export function compileFilter(filter: FilterDefinition, params: Record<string, number>, table: FeatureTable): CompiledFilter {
  const slot = table.slot(filter.feature);
  const name = filter.feature;
  const min = filter.min === undefined ? undefined : resolveNumber(filter.min, params);
  const max = filter.max === undefined ? undefined : resolveNumber(filter.max, params);
  const allowed = filter.in ? new Set<FeatureValue>(filter.in) : undefined;
  const refused = filter.not_in ? new Set<FeatureValue>(filter.not_in) : undefined;
  const missingFails = filter.missing === 'fail' || filter.required === true;
  const missingReason: FilterReason = { code: 'filter_failed', feature: name, test: 'missing' };
  const inReason: FilterReason = { code: 'filter_failed', feature: name, test: 'not in', bound: filter.in ? listText(filter.in) : '' };
  const notInReason: FilterReason = {
    code: 'filter_failed',
    feature: name,
    test: 'in',
    bound: filter.not_in ? listText(filter.not_in) : '',
  };
  const belowReason: FilterReason = { code: 'filter_failed', feature: name, test: '<', bound: String(min) };
  const aboveReason: FilterReason = { code: 'filter_failed', feature: name, test: '>', bound: String(max) };

  return {
    slot,
    group: table.group(slot),
    test(values) {
      const value = values[slot] ?? null;
      if (value === null) return missingFails ? missingReason : null;
      if (min !== undefined && (value as number) < min) return belowReason;
      if (max !== undefined && (value as number) > max) return aboveReason;
      if (allowed && !allowed.has(value)) return inReason;
      if (refused?.has(value)) return notInReason;
      return null;
    },
  };
}
