/** docs/features.md, generated from the catalogue so the documentation cannot fall behind the code. */
import { FEATURES } from './feature-catalogue.js';
import type { FeatureGroup } from './feature-definition.js';

const GROUPS: ReadonlyArray<[FeatureGroup, string]> = [
  ['request', 'The loan request ([marketplace 2.2](marketplace.md#22-loan-request)). Always present.'],
  ['borrower', 'The borrower inside the request ([marketplace 2.3](marketplace.md#23-borrower)). Present when the service sent the field.'],
  ['affordability', 'The monthly payment at the max rate against stated income. Free.'],
  [
    'history',
    "The borrower's completed loans ([marketplace 2.8](marketplace.md#28-borrower-loan-history-item), from [4.9](marketplace.md#49-borrower-loan-history); free). Absent unless the strategy asks for it (`data.borrower_history`) and it was found.",
  ],
  [
    'banking',
    'The 90-day banking aggregates ([marketplace 2.9](marketplace.md#29-banking-data) `agg_90`). Absent until banking data is bought.',
  ],
  ['provider_a', 'Provider A ([marketplace 2.10](marketplace.md#210-third-party-scores); flat monthly price). Absent until bought.'],
  ['provider_b', 'Provider B ([marketplace 2.10](marketplace.md#210-third-party-scores); priced per request). Absent until bought.'],
];

export function featuresMarkdown(): string {
  const lines = [
    '# Strategy features',
    '',
    '<!-- Generated from src/engine/features by `node --import tsx scripts/generate-schema.ts`; do not edit by hand. -->',
    '',
    "Every name below can be used in a strategy's `filters` and `score` terms. A feature is",
    '*absent* (null) when its data is missing; absent is never zero, and each filter and term says',
    'what absence means (`missing:`). `lendbot strategy features` prints the same list.',
    '',
    'Amounts are USD (decimal, not cents) for readability in YAML; rates are annual rates in the',
    "API's unit (0.03 = 3% a year); agg_90 window 30 is the most recent month.",
  ];
  for (const [group, intro] of GROUPS) {
    lines.push('', `## ${group}`, '', intro, '', '| feature | kind | unit | meaning |', '|---|---|---|---|');
    for (const feature of FEATURES.filter((candidate) => candidate.group === group)) {
      lines.push(`| \`${feature.name}\` | ${feature.kind} | ${feature.unit} | ${feature.description} |`);
    }
  }
  return `${lines.join('\n')}\n`;
}
