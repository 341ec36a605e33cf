/** Every feature a strategy can use, by name. `lendbot strategy features` and docs/features.md list them. */
import { AFFORDABILITY_FEATURES } from './affordability-features.js';
import { BANKING_FEATURES } from './banking-features.js';
import { BORROWER_FEATURES } from './borrower-features.js';
import type { FeatureDefinition } from './feature-definition.js';
import { HISTORY_FEATURES } from './history-features.js';
import { PROVIDER_FEATURES } from './provider-features.js';
import { REQUEST_FEATURES } from './request-features.js';

export const FEATURES: readonly FeatureDefinition[] = [
  ...REQUEST_FEATURES,
  ...BORROWER_FEATURES,
  ...AFFORDABILITY_FEATURES,
  ...HISTORY_FEATURES,
  ...BANKING_FEATURES,
  ...PROVIDER_FEATURES,
];

const BY_NAME = new Map(FEATURES.map((feature) => [feature.name, feature]));
if (BY_NAME.size !== FEATURES.length) throw new Error('feature catalogue has a duplicate name');

/** Feature names, as a non-empty tuple for z.enum. */
export const FEATURE_NAMES = FEATURES.map((feature) => feature.name) as [string, ...string[]];

/** The feature of that name; throws on an unknown name (the schema has already rejected those). */
export function featureByName(name: string): FeatureDefinition {
  const feature = BY_NAME.get(name);
  if (!feature) throw new RangeError(`unknown feature "${name}"`);
  return feature;
}
