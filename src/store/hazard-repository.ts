/**
 * Early evidence of default, before a loan's term is over: the lender's instalments by month of
 * loan age (the k-th instalment of a loan, by due date, is its month k), how many fell due, were
 * late (paid late, or unpaid past the due date) and missed. A loan is at risk in month k when its
 * k-th instalment has fallen due and none before was missed (a missed instalment sends the loan to
 * collection: it is counted once, in the month it happened), so missed / due is the monthly hazard
 * of default and late / due its warning. Only loans with a predicted default count, pending ones
 * not (like the calibration, calibration-repository.ts). The instalments are streamed in loan and
 * due order and counted as they come: one row per month of age is kept, bounded by the longest
 * term. (A window function in SQL did the same at about twice the time.)
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

interface Instalment {
  loan_id: number;
  flag: string | null;
  probability: number;
  terms: number | null;
}

const INSTALMENTS = `
  WITH window_loans AS MATERIALIZED (
    SELECT l.id AS loan_id, d.probability AS probability,
      NULLIF(CAST(json_extract(l.raw_json, '$.payment_terms') AS INTEGER), 0) AS terms
    FROM loans l JOIN decisions d ON d.loan_request_id = l.loan_request_id
    WHERE d.probability IS NOT NULL AND lower(l.status) <> 'pending'
      AND substr(json_extract(l.raw_json, '$.created_date'), 1, 7) >= :fromVintage
  )
  SELECT p.loan_id AS loan_id, p.flag AS flag, w.probability AS probability, w.terms AS terms
  FROM window_loans w JOIN payments p ON p.loan_id = w.loan_id
  WHERE p.due_date <= :today
  ORDER BY p.loan_id, p.due_date, p.id`;

/** The hazard table of the loans made from `fromVintage` on, instalments due by `nowMs`'s day. */
export function instalmentHazard(db: Database): (fromVintage: string, nowMs: number) => HazardCounts[] {
  const statement = db.prepare<{ fromVintage: string; today: string }, Instalment>(INSTALMENTS);
  return (fromVintage, nowMs) => {
    const months: HazardCounts[] = [];
    let loanId = Number.NaN;
    let ageMonth = 0;
    let missedBefore = false;
    for (const row of statement.iterate({ fromVintage, today: new Date(nowMs).toISOString().slice(0, 10) })) {
      if (row.loan_id !== loanId) [loanId, ageMonth, missedBefore] = [row.loan_id, 0, false];
      ageMonth += 1;
      if (missedBefore) continue;
      const month = (months[ageMonth - 1] ??= { ageMonth, due: 0, late: 0, missed: 0, expectedMissed: 0 });
      month.due += 1;
      if (row.flag === 'late') month.late += 1;
      if (row.flag === 'missed') month.missed += 1;
      month.expectedMissed += row.terms === null ? 1 - row.probability : 1 - row.probability ** (1 / row.terms);
      missedBefore = row.flag === 'missed';
    }
    // Month k is made by the first loan to reach it, after month k − 1: the array has no holes.
    return months;
  };
}
