/**
 * How a model feature turns a feature value into log-odds. Training builds its design matrix
 * with the same functions, so a strategy scores a request exactly as the fit saw it.
 *
 *   standardised: z = clip((transform(x) − mean) / sd, ±Z_CLIP); log-odds = weight × z;
 *                 absent: missing_weight (z counts as 0, the training mean)
 *   levels:       log-odds = levels[value] (0 for a level training never saw);
 *                 absent: missing_weight
 */
import type { FeatureValue } from '../features/feature-definition.js';
import type { ModelFeature, StandardisedFeature } from './model-file.js';

/**
 * Standardised values are clipped here: one extreme value (an income typed with three extra
 * zeros) must not outweigh every other feature.
 */
export const Z_CLIP = 5;

/** A value as a number for a standardised feature: numbers as they are, yes/no as 1/0, else absent. */
export function numericInput(value: FeatureValue): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return null;
}

/** The value before standardising: the feature's transform applied. */
export function transformed(transform: StandardisedFeature['transform'], x: number): number {
  return transform === 'log1p' ? Math.log1p(Math.max(0, x)) : x;
}

/** The standardised, clipped value of a present input (0 when training saw no spread). */
export function standardised(feature: Pick<StandardisedFeature, 'transform' | 'mean' | 'sd'>, x: number): number {
  if (!(feature.sd > 0)) return 0;
  const z = (transformed(feature.transform, x) - feature.mean) / feature.sd;
  return Math.min(Z_CLIP, Math.max(-Z_CLIP, z));
}

/** A level's key: the value as text (levels are recorded as JSON object keys). */
export function levelKey(value: FeatureValue): string | null {
  return value === null ? null : String(value);
}

/** What one model feature adds to the log-odds of repayment for a value. */
export function featureLogOdds(feature: ModelFeature, value: FeatureValue): { logOdds: number; missing: boolean } {
  if (feature.encoding === 'standardised') {
    const x = numericInput(value);
    if (x === null) return { logOdds: feature.missing_weight, missing: true };
    return { logOdds: feature.weight * standardised(feature, x), missing: false };
  }
  const key = levelKey(value);
  if (key === null) return { logOdds: feature.missing_weight, missing: true };
  return { logOdds: feature.levels[key] ?? 0, missing: false };
}
