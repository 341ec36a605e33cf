/**
 * The guard's figures over offers (open exposure, reservations, today's totals) as SQL defines
 * them: the readable reference. The open-offer book (open-offer-book.ts) answers the same
 * questions from memory on the way to every offer, and keeps these queries as its `recount`;
 * test/store/open-offer-book.test.ts holds the two equal after every kind of change.
 */
import type { Database } from 'better-sqlite3';
import type { Cents } from '../domain/index.js';
import { flag, isoFromMs, utcDayBounds } from './sql-values.js';
import { PAID_OUT_SQL, type OfferScope, type ReservationQuery } from './book-offer.js';

export interface ExposureSummary {
  totalCents: Cents;
  /** Per borrower id; loans whose borrower is not known to the store only count in the total. */
  byBorrowerCents: ReadonlyMap<number, Cents>;
  /** Per risk level (0 to 4); exposure of unknown level only counts in the total. */
  byRiskLevelCents: Record<number, Cents>;
}

export type ExposureQuery = { nowMs: number; expiryMs: number } & OfferScope;
export type DailyQuery = { nowMs: number } & OfferScope;
export interface DailyTotals {
  offers: number;
  amountCents: Cents;
}

/** The three figures, each as the book answers it and as the SQL recount does. */
export interface GuardFigures {
  exposure(query: ExposureQuery): ExposureSummary;
  reserved(query: ReservationQuery): Cents;
  daily(query: DailyQuery): DailyTotals;
}

/** Exposure summed per borrower and risk level (either NULL when not known). */
export interface GroupRow {
  borrower_id: number | null;
  risk_level: number | null;
  cents: number;
}

/**
 * Synced loans not paid off, attributed to the borrower and risk level their offer or request
 * names. Each counts what the service says is still owed, never less than nothing, and never less
 * than the total lendbot itself offered on its request (a live offer, in any state: the loan shows
 * it was lent), so a balance the service reports wrong (negative, zero before the loan is paid
 * off) cannot lift the exposure cap (docs/risk-guard.md, "Exposure"). SQLite's MAX of several
 * values is their largest; none of them is NULL here.
 */
export const OPEN_LOANS = `
  SELECT COALESCE(o.borrower_id, r.borrower_id) AS borrower_id,
         COALESCE(l.risk_level, o.risk_level, r.risk_level) AS risk_level,
         MAX(l.remaining_cents, 0, CASE WHEN o.dry_run = 0 THEN o.total_amount_cents ELSE 0 END) AS cents
  FROM loans l
  LEFT JOIN offers o ON o.loan_request_id = l.loan_request_id
  LEFT JOIN requests_seen r ON r.loan_request_id = l.loan_request_id
  WHERE l.paid_off = 0 AND l.list_status <> 'completed'`;

/** The SQL that defines each figure; the book must always agree with it. */
export function sqlRecount(db: Database): GuardFigures {
  const exposureRows = db.prepare<[{ dryRun: number; cutoff: string }], GroupRow>(
    `WITH open_offers AS (
       SELECT o.borrower_id, o.risk_level, o.total_amount_cents AS cents FROM offers o
       WHERE o.dry_run = @dryRun
         AND ((o.state = 'placed' AND o.created_at >= @cutoff) OR o.state IN ('intent', 'unknown', 'accepted', 'funded'))
         AND NOT EXISTS (SELECT 1 FROM loans l WHERE l.loan_request_id = o.loan_request_id)
     )
     SELECT borrower_id, risk_level, SUM(cents) AS cents
     FROM (SELECT * FROM open_offers UNION ALL ${OPEN_LOANS})
     GROUP BY borrower_id, risk_level`,
  );
  const reservedSum = db.prepare<[{ dryRun: number; manual: number; cutoff: string; except: number }], { total: number }>(
    `SELECT COALESCE(SUM(o.total_amount_cents), 0) AS total FROM offers o
     WHERE o.dry_run = @dryRun AND (o.automate_fund = 1 OR @manual = 1) AND o.id <> @except
       AND (o.state IN ('intent', 'unknown') OR (o.state IN ('placed', 'accepted') AND o.created_at >= @cutoff))
       AND (NOT EXISTS (SELECT 1 FROM loans l WHERE l.loan_request_id = o.loan_request_id)
            -- An accepted offer we fund by hand is listed as a pending loan before our fund
            -- call moves any money: it keeps its money until the call succeeds (funded).
            OR (o.automate_fund = 0 AND o.state = 'accepted'))
       AND NOT ${PAID_OUT_SQL}`,
  );
  const dailyRow = db.prepare<[number, string, string], { offers: number; total: number }>(
    `SELECT COUNT(*) AS offers, COALESCE(SUM(total_amount_cents), 0) AS total FROM offers
     WHERE dry_run = ? AND state <> 'refused' AND created_at >= ? AND created_at < ?`,
  );
  return {
    exposure: (query) =>
      summarize(exposureRows.all({ dryRun: flag(query.dryRun ?? false), cutoff: isoFromMs(query.nowMs - query.expiryMs) })),
    reserved: (query) =>
      reservedSum.get({
        dryRun: flag(query.dryRun ?? false),
        manual: flag(query.includeManual ?? false),
        cutoff: isoFromMs(query.nowMs - query.expiryMs),
        except: query.exceptOfferId ?? -1,
      })?.total ?? 0,
    daily(query) {
      const { startMs, endMs } = utcDayBounds(query.nowMs);
      const row = dailyRow.get(flag(query.dryRun ?? false), isoFromMs(startMs), isoFromMs(endMs));
      return { offers: row?.offers ?? 0, amountCents: row?.total ?? 0 };
    },
  };
}

/** An exposure summary being added up. */
export interface ExposureTally {
  totalCents: Cents;
  byBorrowerCents: Map<number, Cents>;
  byRiskLevelCents: Record<number, Cents>;
}

/** Adds grouped rows up into a summary (the book starts its own tally from the loans' rows). */
export function summarize(rows: Iterable<GroupRow>): ExposureTally {
  const summary: ExposureTally = { totalCents: 0, byBorrowerCents: new Map(), byRiskLevelCents: {} };
  for (const row of rows) addExposure(summary, row.borrower_id, row.risk_level, row.cents);
  return summary;
}

export function addExposure(summary: ExposureTally, borrowerId: number | null, riskLevel: number | null, cents: Cents): void {
  summary.totalCents += cents;
  if (borrowerId !== null) summary.byBorrowerCents.set(borrowerId, (summary.byBorrowerCents.get(borrowerId) ?? 0) + cents);
  if (riskLevel !== null) summary.byRiskLevelCents[riskLevel] = (summary.byRiskLevelCents[riskLevel] ?? 0) + cents;
}
