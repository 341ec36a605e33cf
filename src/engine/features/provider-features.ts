/** Features from the third-party scores (marketplace 2.10); absent until that provider is bought. */
import { PROVIDER_B_BANDS } from '../../domain/index.js';
import { numberFeature, type FeatureDefinition } from './feature-definition.js';

export const PROVIDER_FEATURES: FeatureDefinition[] = [
  numberFeature('provider_a_score', 'provider_a', 'score', "provider A's a_score (flat monthly price)", (s) => s.providerA?.a_score),
  numberFeature(
    'provider_b_score',
    'provider_b',
    '0-100',
    "provider B's p2p_score.score (priced per request)",
    (s) => s.providerB?.p2p_score.score,
  ),
  {
    name: 'provider_b_band',
    kind: 'string',
    group: 'provider_b',
    unit: 'band',
    description: "provider B's score band: excellent (75-100), good (50-75), average (25-50), poor (0-25)",
    compute: (s) => s.providerB?.p2p_score.score_band ?? null,
  },
  numberFeature('provider_b_band_rank', 'provider_b', '0-3', 'provider B band as a number: 3 excellent, 2 good, 1 average, 0 poor', (s) => {
    const band = s.providerB?.p2p_score.score_band;
    if (band === undefined) return null;
    const index = (PROVIDER_B_BANDS as readonly string[]).indexOf(band);
    return index < 0 ? null : PROVIDER_B_BANDS.length - 1 - index;
  }),
];
