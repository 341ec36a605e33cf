/**
 * Predicted against realised default of the lender's loans, by vintage (the UTC month the loan
 * was created, from the service's created_date): each synced loan joined to the decision that
 * offered on its request, whose repayment probability gives the predicted default (1 − p). A
 * loan without such a decision (made by hand, or before the store) is counted apart and left out
 * of both sides, so the comparison is like for like. One row a month: bounded by the book's age.
 */
import type { Database } from 'better-sqlite3';

/** The counts of one vintage (only loans with a predicted default count in the fates). */
export interface VintageCounts {
  /** "2026-03". */
  vintage: string;
  /** Loans with a predicted default. */
  loans: number;
  /** Loans of the vintage without a decision that predicted their default. */
  unpredicted: number;
  /** Sum of the predicted default probabilities of `loans`. */
  predictedSum: number;
  /** In the collection or default list. */
  defaulted: number;
  /** Still current, with a payment the sync saw missed. */
  delinquent: number;
  /** Completed. */
  repaid: number;
}

export interface CalibrationRepository {
  /** Every vintage from `fromVintage` ("2026-01", inclusive) on, oldest first. */
  vintages(fromVintage: string): VintageCounts[];
}

interface Row {
  vintage: string | null;
  loans: number;
  unpredicted: number;
  predicted_sum: number | null;
  defaulted: number | null;
  delinquent: number | null;
  repaid: number | null;
}

export function createCalibrationRepository(db: Database): CalibrationRepository {
  const byVintage = db.prepare<[string], Row>(`
    SELECT substr(json_extract(l.raw_json, '$.created_date'), 1, 7) AS vintage,
      SUM(d.probability IS NOT NULL) AS loans,
      SUM(d.probability IS NULL) AS unpredicted,
      SUM(CASE WHEN d.probability IS NOT NULL THEN 1 - d.probability END) AS predicted_sum,
      SUM(d.probability IS NOT NULL AND l.list_status IN ('collection', 'default')) AS defaulted,
      SUM(d.probability IS NOT NULL AND l.list_status NOT IN ('collection', 'default', 'completed') AND COALESCE(p.missed, 0) > 0) AS delinquent,
      SUM(d.probability IS NOT NULL AND l.list_status = 'completed') AS repaid
    FROM loans l
    LEFT JOIN decisions d ON d.loan_request_id = l.loan_request_id
    LEFT JOIN loan_payment_states p ON p.loan_id = l.id
    GROUP BY vintage
    HAVING vintage IS NOT NULL AND vintage >= ?
    ORDER BY vintage`);
  return {
    vintages(fromVintage) {
      return byVintage.all(fromVintage).map((row) => ({
        vintage: row.vintage ?? '',
        loans: row.loans,
        unpredicted: row.unpredicted,
        predictedSum: row.predicted_sum ?? 0,
        defaulted: row.defaulted ?? 0,
        delinquent: row.delinquent ?? 0,
        repaid: row.repaid ?? 0,
      }));
    },
  };
}
