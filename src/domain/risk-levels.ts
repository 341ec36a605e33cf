/**
 * The marketplace's risk levels (spec: `svc_color`, `borrower_card_color`): integers 0 to 4 with
 * names. One list for the resources' schemas, the strategies' features, the guard and the words a
 * person reads (src/log/plain-figures.ts).
 */

/** Names of the risk levels, indexed by their integer: 0 low, 1 medium, 2 high, 3 friends, 4 crypto. */
export const RISK_LEVEL_NAMES = ['low', 'medium', 'high', 'friends', 'crypto'] as const;

/** The highest risk level the spec defines. */
export const MAX_RISK_LEVEL = RISK_LEVEL_NAMES.length - 1;
