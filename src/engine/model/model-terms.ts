/**
 * A trained model as score terms: one contribution line for its intercept (`model.intercept`)
 * and one per feature, shown in a decision like logistic terms are. Their log-odds add to the
 * strategy's scorecard and logistic terms.
 */
import type { FeatureTable } from '../compile/feature-table.js';
import type { Contribution } from '../decision.js';
import type { FeatureValue } from '../features/feature-definition.js';
import type { LoadedModel } from './load-model-file.js';
import { featureLogOdds } from './model-encoding.js';

export type ScoreTerm = (values: readonly FeatureValue[]) => Contribution;

/** The model's terms, its features given slots in `table`. */
export function modelTerms(model: LoadedModel, table: FeatureTable): ScoreTerm[] {
  const intercept = model.definition.intercept;
  const terms: ScoreTerm[] = [
    () => ({ feature: 'model.intercept', value: null, points: intercept, logOdds: intercept, model: 'logistic' }),
  ];
  for (const feature of model.definition.features) {
    const slot = table.slot(feature.name);
    terms.push((values) => {
      const value = values[slot] ?? null;
      const { logOdds, missing } = featureLogOdds(feature, value);
      const line: Contribution = { feature: feature.name, value, points: logOdds, logOdds, model: 'logistic' };
      if (missing) line.missing = true;
      return line;
    });
  }
  return terms;
}
