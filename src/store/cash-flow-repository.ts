/**
 * What the cash-flow forecast and the idle-cash view read beyond loans and payments: the
 * strategy's recent acceptance flow (our live offers that became loans, with those loans' amounts,
 * rates and terms) and why requests of a window were skipped, by cause. Both read a time window
 * through an index (offers by state and created_at; decisions by action and decided_at).
 */
import type { Database } from 'better-sqlite3';
import { isoFromMs } from './sql-values.js';

/** Our live offers created in a window whose loan is synced (accepted or funded). */
interface AcceptanceFlow {
  loans: number;
  amountCents: number;
  /** Averages over those loans; null when there are none. */
  averageRate: number | null;
  averageTerms: number | null;
  /** Average repayment probability of the decisions behind them (those that had one). */
  averageProbability: number | null;
}

/** Skips in a window, by who refused: the guard (by its code) or the strategy (by its reason's kind). */
interface SkipCause {
  /** `guard` or the first word of the decisive reason: filter, score, price, data, ... */
  kind: string;
  /** The guard's refusal code (max_open_exposure, insufficient_balance, ...); null for the strategy's skips. */
  guardCode: string | null;
  count: number;
}

export interface CashFlowRepository {
  /** The repayment probability of the decision on each synced loan's request (loans without one are absent), by loan id. */
  fundingProbabilities(): Map<number, number>;
  /**
   * The due date (YYYY-MM-DD) of each loan's earliest payment neither paid nor missed, by loan id
   * (loans with none are absent): where its schedule stands, and, when due by today, that it is overdue.
   */
  firstUnsettledDue(): Map<number, string>;
  acceptanceFlow(range: { sinceMs: number; untilMs: number }): AcceptanceFlow;
  skipCauses(range: { sinceMs: number; untilMs: number }): SkipCause[];
}

export function createCashFlowRepository(db: Database): CashFlowRepository {
  const flow = db.prepare<
    [string, string],
    {
      loans: number;
      amount_cents: number | null;
      average_rate: number | null;
      average_terms: number | null;
      average_probability: number | null;
    }
  >(
    `SELECT COUNT(*) AS loans, SUM(l.loan_amount_cents) AS amount_cents, AVG(l.interest_rate) AS average_rate,
       AVG(json_extract(l.raw_json, '$.payment_terms')) AS average_terms, AVG(d.probability) AS average_probability
     FROM offers o
     JOIN loans l ON l.id = (SELECT id FROM loans WHERE loan_request_id = o.loan_request_id ORDER BY id DESC LIMIT 1)
     LEFT JOIN decisions d ON d.loan_request_id = o.loan_request_id
     WHERE o.dry_run = 0 AND o.state IN ('accepted', 'funded') AND o.created_at >= ? AND o.created_at < ?`,
  );
  const probabilities = db.prepare<[], { id: number; probability: number }>(
    `SELECT l.id, d.probability FROM loans l JOIN decisions d ON d.loan_request_id = l.loan_request_id
     WHERE d.probability IS NOT NULL`,
  );
  const unsettled = db.prepare<[], { loan_id: number; due: string }>(
    "SELECT loan_id, MIN(due_date) AS due FROM payments WHERE lower(status) <> 'paid' AND flag IS NOT 'missed' GROUP BY loan_id",
  );
  // The decisive reason is the first; its kind is its code's first part (filter_failed: filter).
  // Every row has values since migration 21 (reason-texts-to-values.ts); a row with no reason has no kind.
  const causes = db.prepare<[string, string], { kind: string | null; guard_code: string | null; n: number }>(
    `SELECT CASE WHEN guard_code IS NOT NULL THEN 'guard'
         WHEN code IS NOT NULL THEN substr(code, 1, instr(code || '_', '_') - 1)
         ELSE '' END AS kind,
       guard_code, COUNT(*) AS n
     FROM (SELECT guard_code, json_extract(reason_values_json, '$[0].code') AS code
           FROM decisions WHERE action = 'skip' AND decided_at >= ? AND decided_at < ?)
     GROUP BY kind, guard_code ORDER BY n DESC, kind, guard_code`,
  );
  return {
    fundingProbabilities: () => new Map(probabilities.all().map((row) => [row.id, row.probability])),
    firstUnsettledDue: () => new Map(unsettled.all().map((row) => [row.loan_id, row.due])),
    acceptanceFlow(range) {
      const row = flow.get(isoFromMs(range.sinceMs), isoFromMs(range.untilMs));
      return {
        loans: row?.loans ?? 0,
        amountCents: row?.amount_cents ?? 0,
        averageRate: row?.average_rate ?? null,
        averageTerms: row?.average_terms ?? null,
        averageProbability: row?.average_probability ?? null,
      };
    },
    skipCauses(range) {
      return causes
        .all(isoFromMs(range.sinceMs), isoFromMs(range.untilMs))
        .map((row) => ({ kind: row.kind === null || row.kind === '' ? 'unknown' : row.kind, guardCode: row.guard_code, count: row.n }));
    },
  };
}
