/**
 * How the open-offer book (open-offer-book.ts) learns what changed: temporary triggers (this
 * connection only, no schema change) note every changed offer id in a temporary table. That
 * table is transactional, so a rolled-back write notes nothing. Anything that changes what a
 * loan is attributed to (or loans themselves) notes RELOAD instead of an id. A transfer paying out
 * for a request (or its removal: the history is replaced at each read) notes that request's offer,
 * whose reservation depends on it (book-offer.ts, PAID_OUT_SQL).
 */
import type { Database } from 'better-sqlite3';

/** Noted in the change table instead of an offer id: reload everything. */
export const RELOAD = 0;

// An id is noted once, so the table stays as small as the set of offers changed since the last
// answer. (Not a unique key: an outer statement's conflict clause would override OR IGNORE inside
// a trigger and fail the write.)
function note(id: string): string {
  return `INSERT INTO temp.offer_book_changes SELECT (${id}) WHERE NOT EXISTS (SELECT 1 FROM temp.offer_book_changes WHERE offer_id = (${id}));`;
}

/** The change table and its triggers: on offers (by id; a move of what attributes them reloads), loans and seen requests. */
const TRIGGERS = `
  CREATE TEMP TABLE IF NOT EXISTS offer_book_changes (offer_id INTEGER NOT NULL);
  CREATE INDEX IF NOT EXISTS temp.offer_book_changes_id ON offer_book_changes (offer_id);
  CREATE TEMP TRIGGER IF NOT EXISTS offer_book_offer_insert AFTER INSERT ON main.offers BEGIN
    ${note(`CASE WHEN EXISTS (SELECT 1 FROM main.loans WHERE loan_request_id = NEW.loan_request_id) THEN ${RELOAD} ELSE NEW.id END`)}
  END;
  CREATE TEMP TRIGGER IF NOT EXISTS offer_book_offer_update AFTER UPDATE ON main.offers BEGIN ${note('NEW.id')} END;
  CREATE TEMP TRIGGER IF NOT EXISTS offer_book_offer_moved AFTER UPDATE OF id, loan_request_id, borrower_id, risk_level ON main.offers
    BEGIN ${note(`${RELOAD}`)} END;
  CREATE TEMP TRIGGER IF NOT EXISTS offer_book_offer_delete AFTER DELETE ON main.offers BEGIN ${note(`${RELOAD}`)} END;
  CREATE TEMP TRIGGER IF NOT EXISTS offer_book_loan_insert AFTER INSERT ON main.loans BEGIN ${note(`${RELOAD}`)} END;
  CREATE TEMP TRIGGER IF NOT EXISTS offer_book_loan_update AFTER UPDATE ON main.loans BEGIN ${note(`${RELOAD}`)} END;
  CREATE TEMP TRIGGER IF NOT EXISTS offer_book_loan_delete AFTER DELETE ON main.loans BEGIN ${note(`${RELOAD}`)} END;
  CREATE TEMP TRIGGER IF NOT EXISTS offer_book_request_insert AFTER INSERT ON main.requests_seen
    WHEN EXISTS (SELECT 1 FROM main.loans WHERE loan_request_id = NEW.loan_request_id) BEGIN ${note(`${RELOAD}`)} END;
  CREATE TEMP TRIGGER IF NOT EXISTS offer_book_request_update AFTER UPDATE ON main.requests_seen BEGIN ${note(`${RELOAD}`)} END;
  CREATE TEMP TRIGGER IF NOT EXISTS offer_book_request_delete AFTER DELETE ON main.requests_seen BEGIN ${note(`${RELOAD}`)} END;
  CREATE TEMP TRIGGER IF NOT EXISTS offer_book_transfer_insert AFTER INSERT ON main.transfers
    WHEN NEW.loan_request_id IS NOT NULL AND NEW.amount_cents < 0 BEGIN
    INSERT INTO temp.offer_book_changes SELECT o.id FROM main.offers o WHERE o.loan_request_id = NEW.loan_request_id
      AND NOT EXISTS (SELECT 1 FROM temp.offer_book_changes c WHERE c.offer_id = o.id);
  END;
  CREATE TEMP TRIGGER IF NOT EXISTS offer_book_transfer_delete AFTER DELETE ON main.transfers
    WHEN OLD.loan_request_id IS NOT NULL AND OLD.amount_cents < 0 BEGIN
    INSERT INTO temp.offer_book_changes SELECT o.id FROM main.offers o WHERE o.loan_request_id = OLD.loan_request_id
      AND NOT EXISTS (SELECT 1 FROM temp.offer_book_changes c WHERE c.offer_id = o.id);
  END;
`;

/** The notes of one connection: the ids changed since the last take (RELOAD among them), and SQLite's data_version. */
export interface ChangeNotes {
  take(): number[];
  dataVersion(): number;
}

/**
 * Makes the change table and triggers on `db` (a write: throws SQLITE_READONLY on a query_only
 * connection). Make them outside a transaction: made inside one, they would roll back with it.
 */
export function installChangeNotes(db: Database): ChangeNotes {
  db.exec(TRIGGERS);
  const take = db.prepare<[], number>('DELETE FROM temp.offer_book_changes RETURNING offer_id').pluck();
  const dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
  return { take: () => take.all(), dataVersion: () => dataVersion.get() ?? 0 };
}
