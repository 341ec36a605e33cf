/**
 * Open exposure: money the investor has, or may soon have, lent out. It is the sum of
 *   - total_amount of offers placed (no older than the offer expiry), intent and unknown (until
 *     settled: they may have reached the service) and accepted, while no loan has been synced
 *     for their request;
 *   - total_amount of offers marked funded whose loan has not been synced yet;
 *   - the remaining balance of every synced loan not paid off (current, collection, default),
 *     including loans made outside lendbot, clamped: never below 0, and for a loan on a request
 *     lendbot offered on, never below that offer's total (the service's figure may be wrong; what
 *     lendbot lent it knows itself). A partly repaid loan of lendbot's therefore counts in full
 *     until it is paid off or completed: the cautious side.
 * A synced loan replaces its offer, so nothing counts twice. Rejected, expired and refused offers
 * count for nothing. Loans count in live and dry-run scopes alike; offers only in their scope.
 * The figure is kept in memory by the open-offer book (open-offer-book.ts), which agrees with
 * the SQL that defines it.
 */
import type { Database } from 'better-sqlite3';
import { openOfferBookOf, type ExposureQuery, type ExposureSummary } from './open-offer-book.js';

export interface ExposureRepository {
  summary(query: ExposureQuery): ExposureSummary;
}

export function createExposureRepository(db: Database): ExposureRepository {
  return {
    // The book is made at the first question, so commands that never ask pay nothing for it.
    summary: (query) => openOfferBookOf(db).exposure(query),
  };
}
