/** The shape of a feature: a named, typed, documented value computed from a FeatureSource. */
import type { FeatureSource } from './feature-source.js';

/** A feature's value; null means absent (the data is missing), never zero. */
export type FeatureValue = number | string | boolean | null;

/**
 * Where a feature's inputs come from. `banking`, `provider_a` and `provider_b` features are
 * absent until that data is bought, which is how evaluation knows what a rule is waiting for.
 */
export type FeatureGroup = 'request' | 'borrower' | 'affordability' | 'history' | 'banking' | 'provider_a' | 'provider_b';

export interface FeatureDefinition {
  name: string;
  kind: 'number' | 'boolean' | 'string';
  group: FeatureGroup;
  /** Unit or scale, e.g. "USD", "ratio", "percent", "count". */
  unit: string;
  description: string;
  compute(source: FeatureSource): FeatureValue;
}

/** A finite number, or null for anything absent or not a number. */
export function present(value: number | null | undefined): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** a / b, or null when either is absent or b is zero. */
export function ratio(a: number | null | undefined, b: number | null | undefined): number | null {
  const top = present(a);
  const bottom = present(b);
  return top === null || bottom === null || bottom === 0 ? null : top / bottom;
}

/** A number feature, the common case. */
export function numberFeature(
  name: string,
  group: FeatureGroup,
  unit: string,
  description: string,
  compute: (source: FeatureSource) => number | null | undefined,
): FeatureDefinition {
  return { name, kind: 'number', group, unit, description, compute: (source) => present(compute(source)) };
}
