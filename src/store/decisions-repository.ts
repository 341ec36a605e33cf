/**
 * One decision per loan request seen, offer or skip, with everything needed to answer "why did
 * it (not) offer?" and to check that a backtest of the same strategy reproduces it.
 */
import type { Database } from 'better-sqlite3';
import { reasonText, type DecisionReason } from '../domain/decision-reason.js';
import { createDecisionPages, type DecisionPage, type DecisionPageQuery } from './decision-page.js';
import { decisionFromRow, type DecisionAction, type DecisionCalibration, type DecisionRow, type StoredDecision } from './decision-row.js';
import { flag, isoFromMs } from './sql-values.js';

export interface DecisionInput {
  loanRequestId: number;
  /** The strategy that decided; null when no strategy got to decide (a pre-filter or an error). */
  strategy?: string | null | undefined;
  /** Hash of the strategy file's content, so a changed file is never mistaken for the same one. */
  contentHash?: string | null | undefined;
  params?: unknown;
  features?: unknown;
  probability?: number | null | undefined;
  rate?: number | null | undefined;
  action: DecisionAction;
  /** Why, as values: stored as their text ("filter credit_score < 600", reasonText) and as themselves. */
  reasons: readonly DecisionReason[];
  dryRun: boolean;
  decidedAtMs: number;
  /** Milliseconds spent per step (enrich, decide, guard, act). */
  timings?: Record<string, number> | undefined;
  /** The guard's refusal code (GuardRefusalCode) when the guard refused. */
  guardCode?: string | null | undefined;
  /** What became of the offer sent: placed, refused, unknown, exists (PlaceOutcome kind). */
  placement?: string | null | undefined;
  /** Which learned calibration gave the probability (score.calibration method learned), when one did. */
  calibration?: DecisionCalibration | undefined;
}

export interface DecisionQuery {
  sinceMs?: number | undefined;
  untilMs?: number | undefined;
  action?: DecisionAction | undefined;
  limit?: number | undefined;
  /** Oldest first by default; 'desc' gives the latest first (with `limit`, the latest N). */
  order?: 'asc' | 'desc' | undefined;
}

export interface DecisionsRepository {
  /** Stores a decision; a second one for the same request is refused ('duplicate'), never overwritten. */
  record(decision: DecisionInput): 'inserted' | 'duplicate';
  /**
   * Stores an agent's decision (`source` agent:NAME). A decision the strategies made before is
   * replaced but kept whole in `previous`; an agent's earlier decision is never replaced ('duplicate').
   */
  recordAgent(decision: DecisionInput & { source: string }): 'inserted' | 'replaced' | 'duplicate';
  has(loanRequestId: number): boolean;
  get(loanRequestId: number): StoredDecision | undefined;
  /** Decisions by time, using the (action, decided_at) or (decided_at) index. */
  list(query?: DecisionQuery): StoredDecision[];
  /** Like list, one row at a time, for exports too large to hold in memory. */
  iterate(query?: DecisionQuery): IterableIterator<StoredDecision>;
  /** How many decisions of each action in [sinceMs, untilMs), by two range counts on the (action, decided_at) index. */
  countByAction(range: { sinceMs: number; untilMs: number }): Record<DecisionAction, number>;
  /** One page of decisions, newest first, with each request's amount and risk level and its offer's state (decision-page.ts). */
  page(query: DecisionPageQuery): DecisionPage;
  /** Decisions of a dry run (true) or of live trading by the UTC month decided, oldest first: requests seen and offer decisions. */
  countsByMonth(dryRun: boolean): Array<{ month: string; requests: number; offers: number }>;
}

/** A replaced decision as previous_json keeps it: the row's own fields, not what its reader derives from them. */
function keptWhole({ previousReasonValues: _derived, ...decision }: StoredDecision): Omit<StoredDecision, 'previousReasonValues'> {
  return decision;
}

export function createDecisionsRepository(db: Database): DecisionsRepository {
  const insert = db.prepare(
    `INSERT INTO decisions (loan_request_id, strategy, content_hash, params_json, features_json, probability,
       rate, action, reasons_json, dry_run, decided_at, timings_json, guard_code, placement, reason_values_json, calibration_json)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (loan_request_id) DO NOTHING`,
  );
  const exists = db.prepare<[number], { one: number }>('SELECT 1 AS one FROM decisions WHERE loan_request_id = ?');
  const countAction = db.prepare<[string, string, string], { n: number }>(
    'SELECT COUNT(*) AS n FROM decisions WHERE action = ? AND decided_at >= ? AND decided_at < ?',
  );
  const byRequest = db.prepare<[number], DecisionRow>('SELECT * FROM decisions WHERE loan_request_id = ?');
  // One row a month (the drift report): bounded by the book's age.
  const byMonth = db.prepare<[number], { month: string; requests: number; offers: number }>(
    `SELECT substr(decided_at, 1, 7) AS month, COUNT(*) AS requests, SUM(action = 'offer') AS offers
     FROM decisions WHERE dry_run = ? GROUP BY 1 ORDER BY 1`,
  );

  // Four fixed statements (with/without action, asc/desc) so each uses its index; LIMIT -1 is "all".
  type ListParams = (string | number)[];
  const listStatements = new Map<string, ReturnType<typeof db.prepare<ListParams, DecisionRow>>>();
  for (const withAction of [false, true]) {
    for (const order of ['ASC', 'DESC']) {
      const where = withAction ? 'action = ? AND ' : '';
      listStatements.set(
        `${withAction}:${order}`,
        db.prepare<ListParams, DecisionRow>(
          `SELECT * FROM decisions WHERE ${where}decided_at >= ? AND decided_at < ?
           ORDER BY decided_at ${order}, id ${order} LIMIT ?`,
        ),
      );
    }
  }

  function select(query: DecisionQuery) {
    const order = query.order === 'desc' ? 'DESC' : 'ASC';
    const statement = listStatements.get(`${query.action !== undefined}:${order}`);
    if (statement === undefined) throw new Error('unreachable: every list statement is prepared');
    const since = query.sinceMs === undefined ? '' : isoFromMs(query.sinceMs);
    const until = query.untilMs === undefined ? '~' : isoFromMs(query.untilMs);
    const limit = query.limit ?? -1;
    const params: ListParams = query.action === undefined ? [since, until, limit] : [query.action, since, until, limit];
    return { statement, params };
  }

  const insertAgent = db.prepare(
    `INSERT INTO decisions (loan_request_id, strategy, content_hash, params_json, features_json, probability,
       rate, action, reasons_json, dry_run, decided_at, timings_json, guard_code, placement, reason_values_json, calibration_json, source, previous_json)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const removeRow = db.prepare<[number]>('DELETE FROM decisions WHERE loan_request_id = ?');
  /** The columns every decision row has, in the order of both INSERTs. */
  const decisionValues = (decision: DecisionInput) =>
    [
      decision.loanRequestId,
      decision.strategy ?? null,
      decision.contentHash ?? null,
      JSON.stringify(decision.params ?? {}),
      JSON.stringify(decision.features ?? {}),
      decision.probability ?? null,
      decision.rate ?? null,
      decision.action,
      JSON.stringify(decision.reasons.map(reasonText)),
      flag(decision.dryRun),
      isoFromMs(decision.decidedAtMs),
      JSON.stringify(decision.timings ?? {}),
      decision.guardCode ?? null,
      decision.placement ?? null,
      JSON.stringify(decision.reasons),
      decision.calibration === undefined ? null : JSON.stringify(decision.calibration),
    ] as const;
  const agentValues = (decision: DecisionInput & { source: string }, previous: StoredDecision | null) =>
    [...decisionValues(decision), decision.source, previous === null ? null : JSON.stringify(keptWhole(previous))] as const;
  // Replaced in one transaction: a reader sees the strategies' row or the agent's, never neither.
  const replaceWithAgent = db.transaction((decision: DecisionInput & { source: string }): 'inserted' | 'replaced' | 'duplicate' => {
    const row = byRequest.get(decision.loanRequestId);
    if (row === undefined) {
      insertAgent.run(...agentValues(decision, null));
      return 'inserted';
    }
    if (row.source !== null) return 'duplicate';
    removeRow.run(decision.loanRequestId);
    insertAgent.run(...agentValues(decision, decisionFromRow(row)));
    return 'replaced';
  });

  const pages = createDecisionPages(db);

  return {
    countsByMonth: (dryRun) => byMonth.all(dryRun ? 1 : 0),
    page: pages,
    recordAgent(decision) {
      return replaceWithAgent(decision);
    },
    record(decision) {
      const result = insert.run(...decisionValues(decision));
      return result.changes === 1 ? 'inserted' : 'duplicate';
    },
    has(loanRequestId) {
      return exists.get(loanRequestId) !== undefined;
    },
    get(loanRequestId) {
      const row = byRequest.get(loanRequestId);
      return row === undefined ? undefined : decisionFromRow(row);
    },
    list(query = {}) {
      const { statement, params } = select(query);
      return statement.all(...params).map(decisionFromRow);
    },
    countByAction(range) {
      const bounds = [isoFromMs(range.sinceMs), isoFromMs(range.untilMs)] as const;
      return { offer: countAction.get('offer', ...bounds)?.n ?? 0, skip: countAction.get('skip', ...bounds)?.n ?? 0 };
    },
    *iterate(query = {}) {
      const { statement, params } = select(query);
      for (const row of statement.iterate(...params)) yield decisionFromRow(row);
    },
  };
}
