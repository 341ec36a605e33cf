/**
 * Open exposure: money the investor has, or may soon have, lent out. It is the sum of
 *   - total_amount of offers placed (no older than the offer expiry), intent and unknown (until
 *     settled: they may have reached the service) and accepted, while no loan has been synced
 *     for their request;
 *   - total_amount of offers marked funded whose loan has not been synced yet;
 *   - the remaining balance of every synced loan not paid off (current, collection, default),
 *     including loans made outside lendbot.
 * A synced loan replaces its offer, so nothing counts twice. Rejected, expired and refused offers
 * count for nothing. Loans count in live and dry-run scopes alike; offers only in their scope.
 */
import type { Database } from 'better-sqlite3';
import type { Cents } from '../service/index.js';
import type { OfferScope } from './offers-repository.js';
import { flag, isoFromMs } from './sql-values.js';

export interface ExposureSummary {
  totalCents: Cents;
  /** Per borrower id; loans whose borrower is not known to the store only count in the total. */
  byBorrowerCents: ReadonlyMap<number, Cents>;
  /** Per risk level (0 to 4); exposure of unknown level only counts in the total. */
  byRiskLevelCents: Record<number, Cents>;
}

export interface ExposureRepository {
  summary(query: { nowMs: number; expiryMs: number } & OfferScope): ExposureSummary;
}

interface ExposureRow {
  borrower_id: number | null;
  risk_level: number | null;
  cents: number;
}

export function createExposureRepository(db: Database): ExposureRepository {
  const rows = db.prepare<[{ dryRun: number; cutoff: string }], ExposureRow>(
    `WITH open_offers AS (
       SELECT o.borrower_id, o.risk_level, o.total_amount_cents AS cents FROM offers o
       WHERE o.dry_run = @dryRun
         AND ((o.state = 'placed' AND o.created_at >= @cutoff) OR o.state IN ('intent', 'unknown', 'accepted', 'funded'))
         AND NOT EXISTS (SELECT 1 FROM loans l WHERE l.loan_request_id = o.loan_request_id)
     ),
     open_loans AS (
       SELECT COALESCE(o.borrower_id, r.borrower_id) AS borrower_id,
              COALESCE(l.risk_level, o.risk_level, r.risk_level) AS risk_level,
              l.remaining_cents AS cents
       FROM loans l
       LEFT JOIN offers o ON o.loan_request_id = l.loan_request_id
       LEFT JOIN requests_seen r ON r.loan_request_id = l.loan_request_id
       WHERE l.paid_off = 0 AND l.list_status <> 'completed'
     )
     SELECT borrower_id, risk_level, SUM(cents) AS cents
     FROM (SELECT * FROM open_offers UNION ALL SELECT * FROM open_loans)
     GROUP BY borrower_id, risk_level`,
  );

  return {
    summary(query) {
      let totalCents = 0;
      const byBorrowerCents = new Map<number, Cents>();
      const byRiskLevelCents: Record<number, Cents> = {};
      for (const row of rows.all({ dryRun: flag(query.dryRun ?? false), cutoff: isoFromMs(query.nowMs - query.expiryMs) })) {
        totalCents += row.cents;
        if (row.borrower_id !== null) {
          byBorrowerCents.set(row.borrower_id, (byBorrowerCents.get(row.borrower_id) ?? 0) + row.cents);
        }
        if (row.risk_level !== null) {
          byRiskLevelCents[row.risk_level] = (byRiskLevelCents[row.risk_level] ?? 0) + row.cents;
        }
      }
      return { totalCents, byBorrowerCents, byRiskLevelCents };
    },
  };
}
