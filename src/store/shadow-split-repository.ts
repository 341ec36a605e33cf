/**
 * A live split's figures by arm (docs/strategies.md, "Shadow and split"): an arm is a strategy,
 * and what it did is found through the decision rows (decisions.strategy) of its offers.
 *
 * - committed: what the arm's capital share rule counts, the cautious side as for exposure: the
 *   total of its offers that may still take money (intent, unknown, accepted, funded; placed
 *   within the offer expiry) while no loan is synced for them, and the remaining balance (at
 *   least the offer's total) of its synced loans not paid off.
 * - returns: per resolved loan (paid off, or in default), (paid − lent) / lent, the input of the
 *   sequential test; P&L is their sum in cents.
 */
import type { Database } from 'better-sqlite3';
import type { Cents } from '../domain/index.js';
import { isoFromMs } from './sql-values.js';

interface ArmResolvedLoan {
  loanRequestId: number;
  lentCents: Cents;
  paidCents: Cents;
  /** (paid − lent) / lent. */
  return: number;
}

export interface ShadowSplitRepository {
  committedCents(query: { strategy: string; nowMs: number; expiryMs: number; dryRun: boolean }): Cents;
  /** `sinceIso`: only loans of requests decided from then on (a retraining candidate's arm period). */
  resolvedLoans(strategy: string, sinceIso?: string): ArmResolvedLoan[];
}

export function createShadowSplitRepository(db: Database): ShadowSplitRepository {
  const committed = db.prepare(`
    SELECT COALESCE(SUM(CASE
      WHEN l.id IS NOT NULL THEN CASE WHEN l.paid_off = 1 OR l.status = 'completed' THEN 0 ELSE MAX(l.remaining_cents, o.total_amount_cents) END
      WHEN o.state IN ('intent', 'unknown', 'accepted', 'funded') THEN o.total_amount_cents
      WHEN o.state = 'placed' AND o.created_at >= @cutoff THEN o.total_amount_cents
      ELSE 0 END), 0) AS cents
    FROM offers o
    JOIN decisions d ON d.loan_request_id = o.loan_request_id
    LEFT JOIN loans l ON l.loan_request_id = o.loan_request_id
    WHERE d.strategy = @strategy AND o.dry_run = @dryRun
  `);
  const resolved = db.prepare(`
    SELECT l.loan_request_id AS loanRequestId, l.loan_amount_cents AS lentCents, COALESCE(p.paid_cents, 0) AS paidCents
    FROM loans l
    JOIN decisions d ON d.loan_request_id = l.loan_request_id
    LEFT JOIN loan_payment_states p ON p.loan_id = l.id
    WHERE d.strategy = @strategy AND d.decided_at >= @since AND (l.paid_off = 1 OR l.status IN ('completed', 'default')) AND l.loan_amount_cents > 0
    ORDER BY l.id
  `);
  return {
    committedCents(query) {
      const row = committed.get({
        strategy: query.strategy,
        cutoff: isoFromMs(query.nowMs - query.expiryMs),
        dryRun: query.dryRun ? 1 : 0,
      }) as { cents: number };
      return row.cents;
    },
    resolvedLoans(strategy, sinceIso = '') {
      const rows = resolved.all({ strategy, since: sinceIso }) as Array<{ loanRequestId: number; lentCents: number; paidCents: number }>;
      return rows.map((row) => ({ ...row, return: (row.paidCents - row.lentCents) / row.lentCents }));
    },
  };
}
