/**
 * The learned market responses (migration 12; docs/market-model.md, "Learning while live"):
 * each learning strategy's learner state, and which learned response priced each decision with
 * what its offer will teach once its fate is known. Built on the store's connection
 * (`createMarketLearningRepository(databaseOf(store))`).
 */
import type { Database } from 'better-sqlite3';
import { flag, isoFromMs, parseJsonColumn } from './sql-values.js';

/** One decision a learned market response priced. */
export interface MarketDecisionInput {
  loanRequestId: number;
  strategy: string;
  version: number;
  evidence: number;
  explored: boolean;
  action: 'offer' | 'skip';
  rate: number | null;
  /** The learner's chance of acceptance at the rate when it priced it (offers). */
  predicted: number | null;
  /** What the offer's fate will teach (offers that reached the service); null: nothing to learn. */
  observation: unknown;
  decidedAtMs: number;
}

/** An offer whose fate is still to be learned. */
export interface UnlearnedOffer {
  loanRequestId: number;
  strategy: string;
  observation: unknown;
  predicted: number | null;
}

/** A stored learner, as written. */
export interface StoredLearner {
  strategy: string;
  version: number;
  evidence: number;
  state: unknown;
  updatedAt: string;
}

export interface MarketLearningRepository {
  recordDecision(input: MarketDecisionInput): void;
  /** Offers still waiting for their fate, oldest first. */
  unlearned(limit: number): UnlearnedOffer[];
  /** Notes the fate learned (or 'none': it never reached a borrower). */
  markLearned(loanRequestId: number, fate: string, atMs: number): void;
  saveLearner(strategy: string, version: number, evidence: number, state: unknown, atMs: number): void;
  learners(): StoredLearner[];
  /** Runs `work` in one transaction (a fate and the learner state it changed are written together). */
  transaction(work: () => void): void;
}

export function createMarketLearningRepository(db: Database): MarketLearningRepository {
  const insert = db.prepare(`
    INSERT OR REPLACE INTO market_decisions (loan_request_id, strategy, version, evidence, explored, action, rate, predicted, observation_json, decided_at)
    VALUES (@loanRequestId, @strategy, @version, @evidence, @explored, @action, @rate, @predicted, @observation, @decidedAt)
  `);
  const pending = db.prepare(`
    SELECT loan_request_id AS loanRequestId, strategy, observation_json AS observation, predicted
    FROM market_decisions WHERE fate IS NULL AND observation_json IS NOT NULL ORDER BY decided_at, loan_request_id LIMIT ?
  `);
  const learned = db.prepare('UPDATE market_decisions SET fate = ?, learned_at = ? WHERE loan_request_id = ?');
  const save = db.prepare(`
    INSERT INTO market_learners (strategy, version, evidence, state_json, updated_at) VALUES (@strategy, @version, @evidence, @state, @at)
    ON CONFLICT (strategy) DO UPDATE SET version = excluded.version, evidence = excluded.evidence, state_json = excluded.state_json, updated_at = excluded.updated_at
  `);
  const all = db.prepare(
    'SELECT strategy, version, evidence, state_json AS state, updated_at AS updatedAt FROM market_learners ORDER BY strategy',
  );
  return {
    recordDecision(input) {
      insert.run({
        loanRequestId: input.loanRequestId,
        strategy: input.strategy,
        version: input.version,
        evidence: input.evidence,
        explored: flag(input.explored),
        action: input.action,
        rate: input.rate,
        predicted: input.predicted,
        observation: input.observation === null || input.observation === undefined ? null : JSON.stringify(input.observation),
        decidedAt: isoFromMs(input.decidedAtMs),
      });
    },
    unlearned(limit) {
      const rows = pending.all(limit) as Array<{ loanRequestId: number; strategy: string; observation: string; predicted: number | null }>;
      return rows.map((row) => ({ ...row, observation: parseJsonColumn<unknown>(row.observation) }));
    },
    markLearned(loanRequestId, fate, atMs) {
      learned.run(fate, isoFromMs(atMs), loanRequestId);
    },
    saveLearner(strategy, version, evidence, state, atMs) {
      save.run({ strategy, version, evidence, state: JSON.stringify(state), at: isoFromMs(atMs) });
    },
    learners() {
      const rows = all.all() as Array<{ strategy: string; version: number; evidence: number; state: string; updatedAt: string }>;
      return rows.map((row) => ({ ...row, state: parseJsonColumn<unknown>(row.state) }));
    },
    transaction(work) {
      db.transaction(work)();
    },
  };
}
