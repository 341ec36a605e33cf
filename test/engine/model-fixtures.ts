/** A small trained-model file, written by hand, for the model tests. */
export const MODEL = {
  format: 'lendbot-model',
  version: 1,
  kind: 'logistic',
  target: 'repaid',
  intercept: 1.2,
  features: [
    { name: 'credit_score_low', encoding: 'standardised', transform: 'none', mean: 600, sd: 50, weight: 0.8, missing_weight: -0.3 },
    { name: 'annual_income', encoding: 'standardised', transform: 'log1p', mean: 10.5, sd: 0.5, weight: 0.4, missing_weight: 0 },
    { name: 'risk_level_name', encoding: 'levels', levels: { low: 0.3, high: -0.5 }, missing_weight: 0 },
    { name: 'provider_a_score', encoding: 'standardised', transform: 'none', mean: 650, sd: 40, weight: 0.2, missing_weight: -0.1 },
  ],
  market: { competition: { share: 0.5, intercept: 0.1, per_default: 0.9, spread: 0.05 }, take_up: { midpoint: 0.6, steepness: 5 } },
};
