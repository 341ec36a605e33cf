/**
 * From feature values to the columns a logistic regression fits, and back from fitted weights
 * to the model file's features. The encoding is the engine's (src/engine/model/model-encoding.ts):
 *
 * - number and yes/no features: standardised with the fitting lines' mean and sd (amounts in USD
 *   that are never negative first go through ln(1 + x)); an absent value counts as the mean and,
 *   when some fitting line lacks the feature, gets its own learned weight (`missing_weight`);
 * - text features: one column per level seen on at least MIN_LEVEL_LINES fitting lines (a rarer
 *   or unseen level adds nothing), and a missing column as above;
 * - a feature absent on every fitting line, or with a single value and never absent, is left out.
 */
import { featureByName, type FeatureValue } from '../../engine/index.js';
import { levelKey, numericInput, standardised, transformed, type ModelFeature } from '../../engine/model/index.js';

/** A level needs this many fitting lines to get its own weight. */
const MIN_LEVEL_LINES = 10;

type Encoding =
  | { name: string; index: number; encoding: 'standardised'; transform: 'none' | 'log1p'; mean: number; sd: number; hasMissing: boolean }
  | { name: string; index: number; encoding: 'levels'; levels: string[]; hasMissing: boolean };

/** One fitted column: the value (or a level) of a feature, or its missing indicator. */
type DesignColumn =
  { feature: number; role: 'value' } | { feature: number; role: 'missing' } | { feature: number; role: 'level'; level: string };

export interface Design {
  encodings: Encoding[];
  /** Column 0 is the intercept; these are columns 1.. */
  columns: DesignColumn[];
  /** Features left out, with why. */
  dropped: Array<{ name: string; why: string }>;
}

function usesLog(name: string, present: readonly number[]): boolean {
  return featureByName(name).unit.startsWith('USD') && present.every((x) => x >= 0);
}

function planFeature(name: string, index: number, values: readonly FeatureValue[]): Encoding | string {
  const kind = featureByName(name).kind;
  const missing = values.filter((value) => value === null).length;
  if (missing === values.length) return 'absent on every line';
  const hasMissing = missing > 0;
  if (kind === 'string') {
    const counts = new Map<string, number>();
    for (const value of values) {
      const key = levelKey(value);
      if (key !== null) counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    const levels = [...counts.entries()]
      .filter(([, count]) => count >= MIN_LEVEL_LINES)
      .map(([level]) => level)
      .sort();
    if (levels.length === 0 && !hasMissing) return `no level on ${MIN_LEVEL_LINES} lines`;
    if (levels.length === 1 && counts.size === 1 && !hasMissing) return 'a single value';
    return { name, index, encoding: 'levels', levels, hasMissing };
  }
  const present = values.map(numericInput).filter((x): x is number => x !== null);
  const transform = kind === 'number' && usesLog(name, present) ? 'log1p' : 'none';
  const inputs = present.map((x) => transformed(transform, x));
  const mean = inputs.reduce((sum, x) => sum + x, 0) / inputs.length;
  const sd = Math.sqrt(inputs.reduce((sum, x) => sum + (x - mean) ** 2, 0) / inputs.length);
  if (!(sd > 0) && !hasMissing) return 'a single value';
  return { name, index, encoding: 'standardised', transform, mean, sd, hasMissing };
}

/** Plans the columns from the fitting lines' values (`rows[i][j]`: line i, feature names[j]). */
export function planDesign(names: readonly string[], rows: readonly (readonly FeatureValue[])[]): Design {
  const encodings: Encoding[] = [];
  const dropped: Design['dropped'] = [];
  names.forEach((name, index) => {
    const plan = planFeature(
      name,
      index,
      rows.map((row) => row[index] ?? null),
    );
    if (typeof plan === 'string') dropped.push({ name, why: plan });
    else encodings.push(plan);
  });
  const columns: DesignColumn[] = [];
  encodings.forEach((encoding, feature) => {
    if (encoding.encoding === 'standardised' && encoding.sd > 0) columns.push({ feature, role: 'value' });
    if (encoding.encoding === 'levels') for (const level of encoding.levels) columns.push({ feature, role: 'level', level });
    if (encoding.hasMissing) columns.push({ feature, role: 'missing' });
  });
  return { encodings, columns, dropped };
}

/** One line's columns, a leading 1 for the intercept. */
export function encodeRow(design: Design, values: readonly FeatureValue[]): number[] {
  const row = [1];
  for (const column of design.columns) {
    const encoding = design.encodings[column.feature] as Encoding;
    const value = values[encoding.index] ?? null;
    if (column.role === 'missing') {
      row.push(value === null || (encoding.encoding === 'standardised' && numericInput(value) === null) ? 1 : 0);
    } else if (column.role === 'level') {
      row.push(levelKey(value) === column.level ? 1 : 0);
    } else {
      const x = numericInput(value);
      row.push(x === null || encoding.encoding !== 'standardised' ? 0 : standardised(encoding, x));
    }
  }
  return row;
}

/** The model file's intercept and features for fitted weights (weights[0] is the intercept). */
export function modelFeatures(design: Design, weights: readonly number[]): { intercept: number; features: ModelFeature[] } {
  const features: ModelFeature[] = design.encodings.map((encoding): ModelFeature => {
    if (encoding.encoding === 'standardised') {
      const { name, transform, mean, sd } = encoding;
      return { name, encoding: 'standardised', transform, mean, sd, weight: 0, missing_weight: 0 };
    }
    return { name: encoding.name, encoding: 'levels', levels: {}, missing_weight: 0 };
  });
  design.columns.forEach((column, j) => {
    const weight = weights[j + 1] ?? 0;
    const feature = features[column.feature] as ModelFeature;
    if (column.role === 'missing') feature.missing_weight = weight;
    else if (column.role === 'level' && feature.encoding === 'levels') feature.levels[column.level] = weight;
    else if (column.role === 'value' && feature.encoding === 'standardised') feature.weight = weight;
  });
  return { intercept: weights[0] ?? 0, features };
}
