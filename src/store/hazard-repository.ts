/**
 * Early evidence of default, before a loan's term is over: the lender's instalments by month of
 * loan age (the k-th instalment of a loan, by due date, is its month k), how many fell due, were
 * late (paid late, or unpaid past the due date) and missed. A loan is at risk in month k when its
 * k-th instalment has fallen due and none before was missed (a missed instalment sends the loan to
 * collection: it is counted once, in the month it happened), so missed / due is the monthly hazard
 * of default and late / due its warning. Only loans with a predicted default count (like the
 * calibration, calibration-repository.ts); one row per month of age, bounded by the longest term.
 */
import type { Database } from 'better-sqlite3';

/** The instalments of one month of loan age. */
export interface HazardCounts {
  /** 1: the first instalment. */
  ageMonth: number;
  /** Loans whose instalment of this month fell due, with no missed one before. */
  due: number;
  /** Of those, instalments flagged late (never missed). */
  late: number;
  /** Of those, instalments missed. */
  missed: number;
  /**
   * The missed instalments the predictions expect among `due`: each loan's constant monthly hazard
   * 1 − p^(1/n) (n instalments, p its repayment probability), as the cash-flow forecast reads p.
   */
  expectedMissed: number;
}

const HAZARD = `
  WITH window_loans AS (
    SELECT l.id AS loan_id, d.probability AS probability,
      NULLIF(CAST(json_extract(l.raw_json, '$.payment_terms') AS INTEGER), 0) AS terms
    FROM loans l JOIN decisions d ON d.loan_request_id = l.loan_request_id
    WHERE d.probability IS NOT NULL AND lower(l.status) <> 'pending' AND substr(json_extract(l.raw_json, '$.created_date'), 1, 7) >= :fromVintage
  ),
  instalments AS (
    SELECT p.flag AS flag, COALESCE(1 - pow(w.probability, 1.0 / w.terms), 1 - w.probability) AS expected,
      ROW_NUMBER() OVER (PARTITION BY p.loan_id ORDER BY p.due_date, p.id) AS age_month,
      COALESCE(SUM(p.flag IS 'missed') OVER (
        PARTITION BY p.loan_id ORDER BY p.due_date, p.id ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS missed_before
    FROM payments p JOIN window_loans w ON w.loan_id = p.loan_id
    WHERE p.due_date <= :today
  )
  SELECT age_month AS ageMonth, COUNT(*) AS due, SUM(flag IS 'late') AS late, SUM(flag IS 'missed') AS missed,
    SUM(expected) AS expectedMissed
  FROM instalments WHERE missed_before = 0
  GROUP BY age_month ORDER BY age_month`;

/** The hazard table of the loans made from `fromVintage` on, instalments due by `nowMs`'s day. */
export function instalmentHazard(db: Database): (fromVintage: string, nowMs: number) => HazardCounts[] {
  const statement = db.prepare<{ fromVintage: string; today: string }, HazardCounts>(HAZARD);
  return (fromVintage, nowMs) => statement.all({ fromVintage, today: new Date(nowMs).toISOString().slice(0, 10) });
}
