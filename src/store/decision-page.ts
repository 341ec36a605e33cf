/**
 * Pages of decisions for the operator's dashboard, newest first, each with its request's amount
 * and risk level (requests_seen, by primary key) and its offer's state (offers, by its unique
 * loan_request_id): one indexed query per page, whatever the table's size.
 *
 * The order is (decided_at, id) descending, read from the (decided_at, id) index, or from the
 * (action, decided_at, id) index when the action is filtered; `before` is a decision id, whose
 * (decided_at, id) is the cursor. The strategy and text filters have no index: they look at a
 * bounded window of SCAN_WINDOW decisions past the cursor at most, and when that window ends
 * before the page is full, `nextBefore` says where to read on.
 */
import type { Database } from 'better-sqlite3';
import { decisionFromRow, type DecisionAction, type DecisionRow, type StoredDecision } from './decision-row.js';

/** How many decisions a filtered page looks at past its cursor, at most. */
export const SCAN_WINDOW = 5_000;
const MAX_PAGE = 500;

export interface DecisionPageQuery {
  /** Decisions per page (1 to MAX_PAGE). */
  limit: number;
  /** Only decisions older than this decision (its id). */
  beforeId?: number | undefined;
  action?: DecisionAction | undefined;
  strategy?: string | undefined;
  /** Matches the request id (a number), or text in the reasons, strategy, guard code or source. */
  text?: string | undefined;
}

export interface PagedDecision extends StoredDecision {
  amountCents: number | null;
  riskLevel: number | null;
  offerState: string | null;
}

export interface DecisionPage {
  decisions: PagedDecision[];
  /** The `beforeId` of the next (older) page; null when nothing older matches. */
  nextBefore: number | null;
}

interface PagedRow extends DecisionRow {
  amount_cents: number | null;
  page_risk_level: number | null;
  offer_state: string | null;
}

/** Thrown for a `beforeId` that is no decision's id. */
export class UnknownCursorError extends RangeError {}

export function createDecisionPages(db: Database): (query: DecisionPageQuery) => DecisionPage {
  const cursorOf = db.prepare<[number], { decided_at: string }>('SELECT decided_at FROM decisions WHERE id = ?');
  const statements = new Map<string, ReturnType<typeof db.prepare<Record<string, unknown>, PagedRow>>>();
  const windowEnds = new Map<string, ReturnType<typeof db.prepare<Record<string, unknown>, { id: number }>>>();

  const scope = (withAction: boolean, withCursor: boolean): string =>
    [withAction ? 'action = @action' : '', withCursor ? '(decided_at, id) < (@cursorAt, @cursorId)' : ''].filter(Boolean).join(' AND ') ||
    '1';

  function pageStatement(withAction: boolean, withCursor: boolean, withStrategy: boolean, withText: boolean) {
    const key = `${withAction}${withCursor}${withStrategy}${withText}`;
    let statement = statements.get(key);
    if (statement === undefined) {
      const filters = [
        withStrategy ? 'd.strategy = @strategy' : '',
        withText
          ? `(d.loan_request_id = @textId OR d.reasons_json LIKE @like ESCAPE '\\' OR d.strategy LIKE @like ESCAPE '\\'
              OR d.guard_code LIKE @like ESCAPE '\\' OR d.source LIKE @like ESCAPE '\\')`
          : '',
      ].filter(Boolean);
      statement = db.prepare<Record<string, unknown>, PagedRow>(
        `SELECT d.*, r.total_amount_cents AS amount_cents, r.risk_level AS page_risk_level, o.state AS offer_state
         FROM (SELECT * FROM decisions WHERE ${scope(withAction, withCursor)}
               ORDER BY decided_at DESC, id DESC LIMIT @window) AS d
         LEFT JOIN requests_seen AS r ON r.loan_request_id = d.loan_request_id
         LEFT JOIN offers AS o ON o.loan_request_id = d.loan_request_id
         ${filters.length > 0 ? `WHERE ${filters.join(' AND ')}` : ''}
         ORDER BY d.decided_at DESC, d.id DESC LIMIT @limit`,
      );
      statements.set(key, statement);
    }
    return statement;
  }

  /** The last decision of a full scan window (where a filtered page reads on), if the window is full. */
  function windowEnd(withAction: boolean, withCursor: boolean) {
    const key = `${withAction}${withCursor}`;
    let statement = windowEnds.get(key);
    if (statement === undefined) {
      statement = db.prepare<Record<string, unknown>, { id: number }>(
        `SELECT id FROM decisions WHERE ${scope(withAction, withCursor)} ORDER BY decided_at DESC, id DESC LIMIT 1 OFFSET @offset`,
      );
      windowEnds.set(key, statement);
    }
    return statement;
  }

  return (query) => {
    const limit = Math.min(Math.max(Math.trunc(query.limit), 1), MAX_PAGE);
    const params: Record<string, unknown> = {};
    if (query.beforeId !== undefined) {
      const cursor = cursorOf.get(query.beforeId);
      if (cursor === undefined) throw new UnknownCursorError(`no decision has id ${query.beforeId}`);
      params.cursorAt = cursor.decided_at;
      params.cursorId = query.beforeId;
    }
    if (query.action !== undefined) params.action = query.action;
    const text = query.text?.trim() ?? '';
    if (query.strategy !== undefined) params.strategy = query.strategy;
    if (text !== '') {
      params.textId = /^\d+$/.test(text) ? Number(text) : -1;
      params.like = `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
    }
    const filtered = query.strategy !== undefined || text !== '';
    const withAction = query.action !== undefined;
    const withCursor = query.beforeId !== undefined;
    // One row more than asked says whether an older page exists.
    params.limit = limit + 1;
    params.window = filtered ? SCAN_WINDOW : limit + 1;
    const rows = pageStatement(withAction, withCursor, query.strategy !== undefined, text !== '').all(params);
    const decisions = rows.slice(0, limit).map((row) => ({
      ...decisionFromRow(row),
      amountCents: row.amount_cents,
      riskLevel: row.page_risk_level,
      offerState: row.offer_state,
    }));
    let nextBefore: number | null = null;
    if (rows.length > limit) nextBefore = decisions.at(-1)?.id ?? null;
    else if (filtered) {
      const { limit: _limit, window: _window, strategy: _strategy, textId: _textId, like: _like, ...scopeParams } = params;
      nextBefore = windowEnd(withAction, withCursor).get({ ...scopeParams, offset: SCAN_WINDOW - 1 })?.id ?? null;
    }
    return { decisions, nextBefore };
  };
}
