/**
 * Loan requests the bot has seen, each once, with the JSON exactly as the service sent it, so a
 * recording of live history can be exported and replayed.
 */
import type { Database } from 'better-sqlite3';
import { parseCents, type Cents, type LoanRequest } from '../domain/index.js';
import { isoFromMs } from './sql-values.js';

export type RequestSource = 'webhook' | 'poll' | 'replay';

interface SeenRequest {
  loanRequestId: number;
  /** The item exactly as the list endpoint returned it. */
  rawJson: string;
  firstSeenAt: string;
  source: RequestSource;
  riskLevel: number;
  totalAmountCents: Cents;
  borrowerId: number;
}

interface SeenRow {
  loan_request_id: number;
  raw_json: string;
  first_seen_at: string;
  source: RequestSource;
  risk_level: number;
  total_amount_cents: number;
  borrower_id: number;
}

export interface RequestsRepository {
  /**
   * Records a request the first time it is seen; later calls change nothing. `raw` is the item as
   * received (before zod parsing reordered keys); the parsed request is stored when omitted.
   */
  markSeen(request: LoanRequest, source: RequestSource, seenAtMs: number, raw?: unknown): { firstTime: boolean };
  get(loanRequestId: number): SeenRequest | undefined;
  /** Requests first seen in [since, until), oldest first. */
  list(range?: { sinceMs?: number; untilMs?: number }): SeenRequest[];
}

function fromRow(row: SeenRow): SeenRequest {
  return {
    loanRequestId: row.loan_request_id,
    rawJson: row.raw_json,
    firstSeenAt: row.first_seen_at,
    source: row.source,
    riskLevel: row.risk_level,
    totalAmountCents: row.total_amount_cents,
    borrowerId: row.borrower_id,
  };
}

export function createRequestsRepository(db: Database): RequestsRepository {
  const insert = db.prepare(
    // ON CONFLICT, not INSERT OR IGNORE: OR IGNORE would also swallow CHECK failures.
    `INSERT INTO requests_seen
       (loan_request_id, raw_json, first_seen_at, source, risk_level, total_amount_cents, borrower_id)
     VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (loan_request_id) DO NOTHING`,
  );
  const byId = db.prepare<[number], SeenRow>('SELECT * FROM requests_seen WHERE loan_request_id = ?');
  const inRange = db.prepare<[string, string], SeenRow>(
    // Requests seen at the same instant (one poll page on a frozen clock) in the order they were
    // decided, so a backtest of the export replays them in the daemon's order (docs/recording-format.md).
    `SELECT * FROM requests_seen WHERE first_seen_at >= ? AND first_seen_at < ?
     ORDER BY first_seen_at,
       (SELECT id FROM decisions WHERE decisions.loan_request_id = requests_seen.loan_request_id),
       loan_request_id`,
  );

  return {
    markSeen(request, source, seenAtMs, raw) {
      const result = insert.run(
        request.id,
        JSON.stringify(raw ?? request),
        isoFromMs(seenAtMs),
        source,
        request.borrower_card_color,
        parseCents(request.total_amount),
        request.borrower.id,
      );
      return { firstTime: result.changes === 1 };
    },
    get(loanRequestId) {
      const row = byId.get(loanRequestId);
      return row === undefined ? undefined : fromRow(row);
    },
    list(range = {}) {
      const since = range.sinceMs === undefined ? '' : isoFromMs(range.sinceMs);
      // Any ISO text sorts before '~', so this is "no upper bound".
      const until = range.untilMs === undefined ? '~' : isoFromMs(range.untilMs);
      return inRange.all(since, until).map(fromRow);
    },
  };
}
