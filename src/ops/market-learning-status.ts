/**
 * What `lendbot status` and the dashboard show of prices that learn (docs/market-model.md,
 * "Learning while live"): per learning strategy, the learned response's version and evidence,
 * what exploring cost, and its take-up against the prior's at a few rate positions for a
 * typical borrower. Read from the store's small learner table (one row per strategy).
 */
import type { LearningSummary } from '../engine/market/index.js';
import { createMarketLearningRepository } from '../store/market-learning-repository.js';
import { databaseOf, type Store } from '../store/index.js';
import { snakeKeys } from './snake-keys.js';

export interface MarketLearningStatus {
  strategy: string;
  updatedAt: string;
  summary: LearningSummary;
}

function isSummary(value: unknown): value is LearningSummary {
  const summary = value as Partial<LearningSummary> | null;
  return typeof summary?.version === 'number' && Array.isArray(summary.curve);
}

export function marketLearningStatus(store: Store): MarketLearningStatus[] {
  return createMarketLearningRepository(databaseOf(store))
    .learners()
    .flatMap((row) => {
      const summary = (row.state as { summary?: unknown } | null)?.summary;
      return isSummary(summary) ? [{ strategy: row.strategy, updatedAt: row.updatedAt, summary }] : [];
    });
}

const usd = (cents: number): string => `${(cents / 100).toFixed(2)} USD`;
const two = (value: number): string => value.toFixed(2);

/** `label  value` lines for the status text: three a strategy. */
export function marketLearningLines(list: readonly MarketLearningStatus[]): Array<[string, string]> {
  return list.flatMap(({ strategy, summary: s }): Array<[string, string]> => [
    [
      `market learned ${strategy}`,
      `v${s.version}, ${s.evidence} offer fates (${s.accepted} accepted); ${s.explored} exploring offers cost ${usd(s.explorationCostCents)} of ${usd(s.offeredValueCents)} expected`,
    ],
    [
      '  take-up prior',
      `${s.curve.map((point) => two(point.prior)).join(' ')} at rates ${s.curve.map((point) => two(point.rate)).join(' ')} (typical request: max rate 0.30, default 0.10)`,
    ],
    ['  take-up learned', s.curve.map((point) => two(point.learned)).join(' ')],
  ]);
}

/** snake_case JSON: the strategy, when, and its summary as stored. */
export function marketLearningJson(list: readonly MarketLearningStatus[]): Array<Record<string, unknown>> {
  return list.map(({ strategy, updatedAt, summary }) => snakeKeys({ strategy, updatedAt, ...summary }) as Record<string, unknown>);
}
