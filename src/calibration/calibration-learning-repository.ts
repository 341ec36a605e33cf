/**
 * The learned default levels (migration 15; docs/market-model.md, "Learning the default level"):
 * each strategy's calibration learner state, and how far each funded loan's evidence has been fed
 * to it (instalments paid on time, and whether it ended defaulted or completed), so a restart
 * resumes the learner and never feeds a payment twice. Built on the store's connection
 * (`createCalibrationLearningRepository(databaseOf(store))`).
 */
import type { Database } from 'better-sqlite3';
import { isoFromMs, parseJsonColumn } from '../store/sql-values.js';

/** A funded loan whose decision a learned calibration priced, with what the store knows of it now and what was fed. */
export interface CalibrationLoanRow {
  loanId: number;
  loanRequestId: number;
  strategy: string;
  /** The decision's calibration_json (which calibration, and the score's default before it). */
  calibration: unknown;
  listStatus: string;
  /** The loan's term in months (its payment_terms, else the request's loan_terms); null when unknown. */
  term: number | null;
  /** Payments marked paid, and marked missed. */
  paid: number;
  missed: number;
  /** Instalments fed so far; null when the loan was never fed. */
  fedPaid: number | null;
}

/** A stored calibration learner, as written. */
interface StoredCalibrationLearner {
  strategy: string;
  version: number;
  state: unknown;
  updatedAt: string;
}

export interface CalibrationLearningRepository {
  /** Funded loans with a learned calibration whose fate is not final yet, by loan id. */
  loansToFeed(): CalibrationLoanRow[];
  /** Notes what was fed of a loan (`final`: it defaulted or completed; nothing more to feed). */
  markFed(loan: { loanId: number; strategy: string; paid: number; final: 'defaulted' | 'completed' | null }, atMs: number): void;
  saveLearner(
    strategy: string,
    learner: { version: number; loans: number; defaults: number; loanMonths: number; state: unknown },
    atMs: number,
  ): void;
  learners(): StoredCalibrationLearner[];
  /** Runs `work` in one transaction (evidence fed and the learner state it changed are written together). */
  transaction(work: () => void): void;
}

interface LoanRow {
  loan_id: number;
  loan_request_id: number;
  strategy: string;
  calibration_json: string;
  list_status: string;
  term: number | null;
  paid: number;
  missed: number;
  fed_paid: number | null;
}

export function createCalibrationLearningRepository(db: Database): CalibrationLearningRepository {
  const toFeed = db.prepare<[], LoanRow>(`
    SELECT l.id AS loan_id, l.loan_request_id, d.strategy, d.calibration_json, l.list_status,
      COALESCE(json_extract(l.raw_json, '$.payment_terms'), json_extract(r.raw_json, '$.loan_terms')) AS term,
      COALESCE(p.paid, 0) AS paid, COALESCE(p.missed, 0) AS missed, c.paid AS fed_paid
    FROM loans l
    JOIN decisions d ON d.loan_request_id = l.loan_request_id AND d.calibration_json IS NOT NULL AND d.strategy IS NOT NULL
    LEFT JOIN requests_seen r ON r.loan_request_id = l.loan_request_id
    LEFT JOIN loan_payment_states p ON p.loan_id = l.id
    LEFT JOIN calibration_loans c ON c.loan_id = l.id
    WHERE c.final IS NULL AND lower(l.status) <> 'pending'
    ORDER BY l.id`);
  const fed = db.prepare(`
    INSERT INTO calibration_loans (loan_id, strategy, paid, final, updated_at) VALUES (@loanId, @strategy, @paid, @final, @at)
    ON CONFLICT (loan_id) DO UPDATE SET paid = excluded.paid, final = excluded.final, updated_at = excluded.updated_at`);
  const save = db.prepare(`
    INSERT INTO calibration_learners (strategy, version, loans, defaults, loan_months, state_json, updated_at)
    VALUES (@strategy, @version, @loans, @defaults, @loanMonths, @state, @at)
    ON CONFLICT (strategy) DO UPDATE SET version = excluded.version, loans = excluded.loans, defaults = excluded.defaults,
      loan_months = excluded.loan_months, state_json = excluded.state_json, updated_at = excluded.updated_at`);
  const all = db.prepare<[], { strategy: string; version: number; state: string; updatedAt: string }>(
    'SELECT strategy, version, state_json AS state, updated_at AS updatedAt FROM calibration_learners ORDER BY strategy',
  );
  return {
    loansToFeed() {
      return toFeed.all().map((row) => ({
        loanId: row.loan_id,
        loanRequestId: row.loan_request_id,
        strategy: row.strategy,
        calibration: parseJsonColumn<unknown>(row.calibration_json),
        listStatus: row.list_status,
        term: typeof row.term === 'number' && row.term > 0 ? row.term : null,
        paid: row.paid,
        missed: row.missed,
        fedPaid: row.fed_paid,
      }));
    },
    markFed(loan, atMs) {
      fed.run({ ...loan, at: isoFromMs(atMs) });
    },
    saveLearner(strategy, learner, atMs) {
      save.run({
        strategy,
        version: learner.version,
        loans: learner.loans,
        defaults: learner.defaults,
        loanMonths: learner.loanMonths,
        state: JSON.stringify(learner.state),
        at: isoFromMs(atMs),
      });
    },
    learners() {
      return all.all().map((row) => ({ ...row, state: parseJsonColumn<unknown>(row.state) }));
    },
    transaction(work) {
      db.transaction(work)();
    },
  };
}
