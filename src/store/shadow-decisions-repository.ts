/**
 * Shadow decisions: what each challenger strategy (`shadow: true`) would have offered on a live
 * request (docs/strategies.md, "Shadow and split"). Never an offer: nothing here is sent, reserved
 * or counted by the guard. One row per request and challenger; recording the same pair again
 * (a request decided again after a restart) keeps the first.
 *
 * Built on the store's connection (`createShadowDecisionsRepository(databaseOf(store))`), so the
 * store's own interface is unchanged.
 */
import type { Database } from 'better-sqlite3';
import type { Cents } from '../domain/index.js';
import { reasonText, type DecisionReason } from '../domain/decision-reason.js';
import { reasonValuesOf } from './decision-row.js';
import { isoFromMs } from './sql-values.js';

export interface ShadowDecisionInput {
  loanRequestId: number;
  strategy: string;
  contentHash: string | null;
  action: 'offer' | 'skip';
  rate: number | null;
  probability: number | null;
  /** The market response's chance the offer would have been accepted (a model), null on a skip. */
  modelledAccept: number | null;
  amountCents: Cents;
  maxRate: number;
  /** Stored as their text (reasonText) and as themselves. */
  reasons: readonly DecisionReason[];
  /** Data the challenger asked for that the live decision had not bought. */
  needed: readonly string[];
  decidedAtMs: number;
}

/** One challenger's figures against the live decisions on the same requests. */
export interface ShadowComparisonRow {
  strategy: string;
  /** Requests the challenger decided on. */
  seen: number;
  wouldOffer: number;
  /** Mean rate of its would-be offers; null when none. */
  meanRate: number | null;
  /** Requests on which it asked for data the live decision had not bought. */
  neededData: number;
  /** Of those requests, how many the live strategies offered on. */
  liveOffers: number;
  liveMeanRate: number | null;
  /** Both offered. */
  overlap: number;
  /** Both offered and a borrower took the live offer (accepted or funded): a real answer. */
  liveFunded: number;
  /** Of those, the challenger's rate was at or below the rate the borrower took (it would have won too). */
  liveFundedAtOrBelow: number;
  /** Sum of the modelled acceptance of its offers where the live offer was not funded (expected acceptances, modelled). */
  modelledAccepted: number;
  /** Number of would-be offers that sum is over. */
  modelledOffers: number;
}

export interface ShadowDecisionsRepository {
  record(input: ShadowDecisionInput): void;
  /** Rows of one request, by strategy name. */
  forRequest(loanRequestId: number): Array<{
    strategy: string;
    action: 'offer' | 'skip';
    rate: number | null;
    needed: string[];
    reasons: string[];
    reasonValues: DecisionReason[];
  }>;
  /** Per challenger, its decisions since `sinceMs` (all when undefined) against the live ones. */
  compare(sinceMs?: number): ShadowComparisonRow[];
}

const ACCEPTED_STATES = "('accepted', 'funded')";

export function createShadowDecisionsRepository(db: Database): ShadowDecisionsRepository {
  const insert = db.prepare(`
    INSERT OR IGNORE INTO shadow_decisions
      (loan_request_id, strategy, content_hash, action, rate, probability, modelled_accept, amount_cents, max_rate, reasons_json, needed_json, decided_at, reason_values_json)
    VALUES (@loanRequestId, @strategy, @contentHash, @action, @rate, @probability, @modelledAccept, @amountCents, @maxRate, @reasons, @needed, @decidedAt, @reasonValues)
  `);
  const byRequest = db.prepare(
    `SELECT strategy, action, rate, needed_json, reasons_json, reason_values_json FROM shadow_decisions WHERE loan_request_id = ? ORDER BY strategy`,
  );
  // The live side of each request: its decision row and, when an offer went out, whether a
  // borrower took it (the offer accepted or funded, as the account sync records it).
  const comparison = db.prepare(`
    WITH joined AS (
      SELECT s.strategy, s.action, s.rate, s.needed_json, s.modelled_accept, d.action AS live_action, d.rate AS live_rate,
             COALESCE(d.action = 'offer' AND (o.state IN ${ACCEPTED_STATES}), 0) AS taken,
             o.rate AS taken_rate
      FROM shadow_decisions s
      LEFT JOIN decisions d ON d.loan_request_id = s.loan_request_id
      LEFT JOIN offers o ON o.loan_request_id = s.loan_request_id AND d.action = 'offer'
      WHERE s.decided_at >= ?
    )
    SELECT strategy,
           COUNT(*) AS seen,
           SUM(action = 'offer') AS wouldOffer,
           AVG(CASE WHEN action = 'offer' THEN rate END) AS meanRate,
           SUM(needed_json <> '[]') AS neededData,
           SUM(COALESCE(live_action = 'offer', 0)) AS liveOffers,
           AVG(CASE WHEN live_action = 'offer' THEN live_rate END) AS liveMeanRate,
           SUM(action = 'offer' AND COALESCE(live_action = 'offer', 0)) AS overlap,
           SUM(action = 'offer' AND taken) AS liveFunded,
           SUM(action = 'offer' AND taken AND rate <= taken_rate) AS liveFundedAtOrBelow,
           SUM(CASE WHEN action = 'offer' AND NOT taken THEN COALESCE(modelled_accept, 0) ELSE 0 END) AS modelledAccepted,
           SUM(action = 'offer' AND NOT taken) AS modelledOffers
    FROM joined
    GROUP BY strategy
    ORDER BY strategy
  `);
  return {
    record(input) {
      insert.run({
        loanRequestId: input.loanRequestId,
        strategy: input.strategy,
        contentHash: input.contentHash,
        action: input.action,
        rate: input.rate,
        probability: input.probability,
        modelledAccept: input.modelledAccept,
        amountCents: input.amountCents,
        maxRate: input.maxRate,
        reasons: JSON.stringify(input.reasons.map(reasonText)),
        reasonValues: JSON.stringify(input.reasons),
        needed: JSON.stringify(input.needed),
        decidedAt: isoFromMs(input.decidedAtMs),
      });
    },
    forRequest(loanRequestId) {
      const rows = byRequest.all(loanRequestId) as Array<{
        strategy: string;
        action: 'offer' | 'skip';
        rate: number | null;
        needed_json: string;
        reasons_json: string;
        reason_values_json: string | null;
      }>;
      return rows.map((row) => {
        const reasons = JSON.parse(row.reasons_json) as string[];
        return {
          strategy: row.strategy,
          action: row.action,
          rate: row.rate,
          needed: JSON.parse(row.needed_json) as string[],
          reasons,
          reasonValues: reasonValuesOf(row.reason_values_json, reasons),
        };
      });
    },
    compare(sinceMs) {
      const since = sinceMs === undefined ? '' : isoFromMs(sinceMs);
      return (comparison.all(since) as ShadowComparisonRow[]).map((row) => ({ ...row }));
    },
  };
}
