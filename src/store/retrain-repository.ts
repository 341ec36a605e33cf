/**
 * Retraining while live (migration 17; docs/training.md, "Retraining while live"): each round
 * with its evidence, and the managed versions of a strategy the daemon runs instead of its file.
 * Built on the store's connection (`createRetrainRepository(databaseOf(store))`), as the learned
 * market responses are: the retraining wing (src/retrain/) owns it.
 */
import type { Database } from 'better-sqlite3';
import { isoFromMs, parseJsonColumn } from './sql-values.js';

export type RetrainDecision = 'promoted' | 'refused' | 'waiting';

/** One round as stored; the evidence columns as parsed JSON (null where the round never got there). */
export interface RetrainRound {
  id: number;
  strategy: string;
  startedAt: string;
  decidedAt: string | null;
  decision: RetrainDecision;
  reason: string;
  resolvedLoans: number;
  candidate: unknown;
  candidateText: string | null;
  /** The candidate's retrained model file (JSON), for a strategy that scores with one. */
  candidateModel: string | null;
  fit: unknown;
  heldOut: unknown;
  shadowName: string | null;
  shadowUntil: string | null;
  shadow: unknown;
  nextAt: string | null;
}

interface NewRetrainRound {
  strategy: string;
  startedAtMs: number;
  decision: RetrainDecision;
  reason: string;
  resolvedLoans: number;
  candidate?: unknown;
  candidateText?: string;
  candidateModel?: string;
  fit?: unknown;
  heldOut?: unknown;
  /** A waiting round's shadow strategy is named `<strategy>-retrain-<id>`. */
  shadowUntilMs?: number;
  nextAtMs: number;
}

/** A managed version of a strategy; text null: the strategy file as written. */
export interface StrategyVersion {
  id: number;
  strategy: string;
  kind: 'promoted' | 'rollback';
  roundId: number | null;
  text: string | null;
  /** The model file (JSON) its score.model reads instead of the file's; null: the file's own. */
  model: string | null;
  /** The content hash of the strategy file it was built on: once the file changes, the file runs again. */
  fileHash: string | null;
  parentId: number | null;
  restoredId: number | null;
  createdAt: string;
}

export interface RetrainRepository {
  /** Records a round; a decided one (promoted, refused) gets its decision time now. */
  addRound(round: NewRetrainRound): number;
  /** Closes a waiting round with its shadow figures. */
  decideRound(
    id: number,
    decision: Exclude<RetrainDecision, 'waiting'>,
    reason: string,
    shadow: unknown,
    atMs: number,
    nextAtMs: number,
  ): void;
  /** Keeps a round waiting with a new reason and its shadow figures so far. */
  noteRound(id: number, reason: string, shadow: unknown, nextAtMs: number): void;
  rounds(options?: { strategy?: string; limit?: number }): RetrainRound[];
  round(id: number): RetrainRound | undefined;
  waiting(): RetrainRound[];
  /** The newest round of a strategy, or of any strategy. */
  lastRound(strategy?: string): RetrainRound | undefined;
  addVersion(version: Omit<StrategyVersion, 'id' | 'createdAt'>, atMs: number): number;
  versions(strategy?: string): StrategyVersion[];
  version(id: number): StrategyVersion | undefined;
  /** The version in force of each strategy that has one (newest row per strategy). */
  inForce(): StrategyVersion[];
  /** Runs `work` in one transaction. */
  transaction<T>(work: () => T): T;
}

interface RoundRow {
  id: number;
  strategy: string;
  started_at: string;
  decided_at: string | null;
  decision: RetrainDecision;
  reason: string;
  resolved_loans: number;
  candidate_json: string | null;
  candidate_text: string | null;
  candidate_model: string | null;
  fit_json: string | null;
  held_out_json: string | null;
  shadow_name: string | null;
  shadow_until: string | null;
  shadow_json: string | null;
  next_at: string | null;
}

interface VersionRow {
  id: number;
  strategy: string;
  kind: 'promoted' | 'rollback';
  round_id: number | null;
  text: string | null;
  model: string | null;
  file_hash: string | null;
  parent_id: number | null;
  restored_id: number | null;
  created_at: string;
}

const json = (value: unknown): string | null => (value === undefined ? null : JSON.stringify(value));
const parsed = (text: string | null): unknown => (text === null ? null : parseJsonColumn<unknown>(text));

function roundOf(row: RoundRow): RetrainRound {
  return {
    id: row.id,
    strategy: row.strategy,
    startedAt: row.started_at,
    decidedAt: row.decided_at,
    decision: row.decision,
    reason: row.reason,
    resolvedLoans: row.resolved_loans,
    candidate: parsed(row.candidate_json),
    candidateText: row.candidate_text,
    candidateModel: row.candidate_model,
    fit: parsed(row.fit_json),
    heldOut: parsed(row.held_out_json),
    shadowName: row.shadow_name,
    shadowUntil: row.shadow_until,
    shadow: parsed(row.shadow_json),
    nextAt: row.next_at,
  };
}

function versionOf(row: VersionRow): StrategyVersion {
  return {
    id: row.id,
    strategy: row.strategy,
    kind: row.kind,
    roundId: row.round_id,
    text: row.text,
    model: row.model,
    fileHash: row.file_hash,
    parentId: row.parent_id,
    restoredId: row.restored_id,
    createdAt: row.created_at,
  };
}

export function createRetrainRepository(db: Database): RetrainRepository {
  const insertRound = db.prepare(`
    INSERT INTO retrain_rounds (strategy, started_at, decided_at, decision, reason, resolved_loans, candidate_json, candidate_text,
      candidate_model, fit_json, held_out_json, shadow_until, next_at)
    VALUES (@strategy, @startedAt, @decidedAt, @decision, @reason, @resolvedLoans, @candidate, @candidateText, @candidateModel, @fit, @heldOut,
      @shadowUntil, @nextAt)
  `);
  const nameShadow = db.prepare(`UPDATE retrain_rounds SET shadow_name = strategy || '-retrain-' || id WHERE id = ?`);
  const decide = db.prepare(
    `UPDATE retrain_rounds SET decision = ?, reason = ?, shadow_json = ?, decided_at = ?, next_at = ? WHERE id = ? AND decision = 'waiting'`,
  );
  const note = db.prepare(`UPDATE retrain_rounds SET reason = ?, shadow_json = ?, next_at = ? WHERE id = ? AND decision = 'waiting'`);
  const byId = db.prepare<[number], RoundRow>('SELECT * FROM retrain_rounds WHERE id = ?');
  const all = db.prepare<[{ strategy: string | null; limit: number }], RoundRow>(
    'SELECT * FROM retrain_rounds WHERE (@strategy IS NULL OR strategy = @strategy) ORDER BY id DESC LIMIT @limit',
  );
  const waitingRows = db.prepare<[], RoundRow>(`SELECT * FROM retrain_rounds WHERE decision = 'waiting' ORDER BY id`);
  const insertVersion = db.prepare(`
    INSERT INTO strategy_versions (strategy, kind, round_id, text, model, file_hash, parent_id, restored_id, created_at)
    VALUES (@strategy, @kind, @roundId, @text, @model, @fileHash, @parentId, @restoredId, @createdAt)
  `);
  const versionById = db.prepare<[number], VersionRow>('SELECT * FROM strategy_versions WHERE id = ?');
  const versionRows = db.prepare<[{ strategy: string | null }], VersionRow>(
    'SELECT * FROM strategy_versions WHERE (@strategy IS NULL OR strategy = @strategy) ORDER BY id',
  );
  const inForceRows = db.prepare<[], VersionRow>(
    'SELECT * FROM strategy_versions WHERE id IN (SELECT MAX(id) FROM strategy_versions GROUP BY strategy) ORDER BY strategy',
  );
  return {
    addRound(round) {
      const decided = round.decision === 'waiting' ? null : isoFromMs(round.startedAtMs);
      const id = Number(
        insertRound.run({
          strategy: round.strategy,
          startedAt: isoFromMs(round.startedAtMs),
          decidedAt: decided,
          decision: round.decision,
          reason: round.reason,
          resolvedLoans: round.resolvedLoans,
          candidate: json(round.candidate),
          candidateText: round.candidateText ?? null,
          candidateModel: round.candidateModel ?? null,
          fit: json(round.fit),
          heldOut: json(round.heldOut),
          shadowUntil: round.shadowUntilMs === undefined ? null : isoFromMs(round.shadowUntilMs),
          nextAt: isoFromMs(round.nextAtMs),
        }).lastInsertRowid,
      );
      if (round.decision === 'waiting') nameShadow.run(id);
      return id;
    },
    decideRound(id, decision, reason, shadow, atMs, nextAtMs) {
      decide.run(decision, reason, json(shadow), isoFromMs(atMs), isoFromMs(nextAtMs), id);
    },
    noteRound(id, reason, shadow, nextAtMs) {
      note.run(reason, json(shadow), isoFromMs(nextAtMs), id);
    },
    rounds(options = {}) {
      return all.all({ strategy: options.strategy ?? null, limit: options.limit ?? -1 }).map(roundOf);
    },
    round(id) {
      const row = byId.get(id);
      return row === undefined ? undefined : roundOf(row);
    },
    waiting: () => waitingRows.all().map(roundOf),
    lastRound(strategy) {
      const row = all.get({ strategy: strategy ?? null, limit: 1 });
      return row === undefined ? undefined : roundOf(row);
    },
    addVersion(version, atMs) {
      return Number(insertVersion.run({ ...version, createdAt: isoFromMs(atMs) }).lastInsertRowid);
    },
    versions: (strategy) => versionRows.all({ strategy: strategy ?? null }).map(versionOf),
    version(id) {
      const row = versionById.get(id);
      return row === undefined ? undefined : versionOf(row);
    },
    inForce: () => inForceRows.all().map(versionOf),
    transaction: (work) => db.transaction(work)(),
  };
}
