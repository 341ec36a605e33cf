/**
 * Retraining while live in `lendbot status`, the status API and the dashboard (docs/training.md,
 * "Retraining while live"): the last round, its decision and why, and when the loop looks again.
 * Read from the store alone, so every surface shows the same.
 */
import { snakeKeys } from './snake-keys.js';
import { createRetrainRepository, databaseOf, type RetrainDecision, type Store } from '../store/index.js';

export interface RetrainStatus {
  last: { id: number; strategy: string; decision: RetrainDecision; reason: string; startedAt: string; decidedAt: string | null };
  /** The earliest time the loop looks at a strategy again (a shadow's end or a next round). */
  nextAt: string | null;
  /** Strategies that run a retrained (managed) version instead of their file. */
  versionsInForce: Array<{ strategy: string; version: number }>;
}

/** Null when no round was ever run. */
export function retrainStatus(store: Store): RetrainStatus | null {
  const repo = createRetrainRepository(databaseOf(store));
  const last = repo.lastRound();
  if (last === undefined) return null;
  const strategies = [...new Set(repo.rounds({ limit: 200 }).map((round) => round.strategy))];
  const nextAts = strategies
    .map((strategy) => repo.lastRound(strategy)?.nextAt ?? null)
    .filter((at): at is string => at !== null)
    .sort();
  return {
    last: {
      id: last.id,
      strategy: last.strategy,
      decision: last.decision,
      reason: last.reason,
      startedAt: last.startedAt,
      decidedAt: last.decidedAt,
    },
    nextAt: nextAts[0] ?? null,
    versionsInForce: repo
      .inForce()
      .filter((version) => version.text !== null)
      .map((version) => ({ strategy: version.strategy, version: version.id })),
  };
}

/** The one status line, or none before the first round. */
export function retrainLines(status: RetrainStatus | null): Array<[string, string]> {
  if (status === null) return [];
  const { last } = status;
  const next = status.nextAt === null ? '' : `; next look ${status.nextAt}`;
  const managed =
    status.versionsInForce.length === 0
      ? ''
      : `; running retrained ${status.versionsInForce.map((v) => `${v.strategy} (#${v.version})`).join(', ')}`;
  return [
    [
      'retraining',
      `round #${last.id} of ${last.strategy} (${last.startedAt}): ${last.decision.toUpperCase()}, ${last.reason}${next}${managed}`,
    ],
  ];
}

/** snake_case JSON. */
export function retrainJson(status: RetrainStatus | null): Record<string, unknown> | null {
  return status === null ? null : { last_round: snakeKeys(status.last), next_at: status.nextAt, versions_in_force: status.versionsInForce };
}
