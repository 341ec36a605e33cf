/**
 * Enrichment bought about a request (banking data, third-party scores) and what it cost: the
 * spend ledger that enforces monthly data budgets reads its sums from here.
 */
import { redactPersonalData } from './redact-personal-data.js';
import type { Database } from 'better-sqlite3';
import type { Cents } from '../service/index.js';
import { flag, isoFromMs } from './sql-values.js';

export type PurchaseKind = 'banking_data' | 'provider';

export interface PurchaseInput {
  loanRequestId: number;
  kind: PurchaseKind;
  /** The provider's name for `provider` purchases; omitted for banking data. */
  provider?: string | undefined;
  costCents: Cents;
  boughtAtMs: number;
  ok: boolean;
  /** The failure text when `ok` is false. */
  error?: string | undefined;
  /** What was bought, as returned by the service. */
  payload?: unknown;
}

export interface Purchase {
  id: number;
  loanRequestId: number;
  kind: PurchaseKind;
  provider: string | null;
  costCents: Cents;
  boughtAt: string;
  ok: boolean;
  error: string | null;
  payloadJson: string | null;
}

interface PurchaseRow {
  id: number;
  loan_request_id: number;
  kind: PurchaseKind;
  provider: string | null;
  cost_cents: number;
  bought_at: string;
  ok: 0 | 1;
  error: string | null;
  payload_json: string | null;
}

export interface PurchasesRepository {
  /** Records one purchase and returns its id. */
  record(purchase: PurchaseInput): number;
  /** Purchases about one request, oldest first. */
  forRequest(loanRequestId: number): Purchase[];
  /** Total cost of purchases made in [from, to), optionally of one provider or kind. */
  spendCents(query: { provider?: string; kind?: PurchaseKind; fromMs: number; toMs: number }): Cents;
}

function fromRow(row: PurchaseRow): Purchase {
  return {
    id: row.id,
    loanRequestId: row.loan_request_id,
    kind: row.kind,
    provider: row.provider,
    costCents: row.cost_cents,
    boughtAt: row.bought_at,
    ok: row.ok === 1,
    error: row.error,
    payloadJson: row.payload_json,
  };
}

export function createPurchasesRepository(db: Database): PurchasesRepository {
  const insert = db.prepare(
    `INSERT INTO purchases (loan_request_id, kind, provider, cost_cents, bought_at, ok, error, payload_json)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const byRequest = db.prepare<[number], PurchaseRow>(
    'SELECT * FROM purchases WHERE loan_request_id = ? ORDER BY bought_at, id',
  );
  // NULL parameters mean "any": one prepared statement serves every filter combination.
  const spend = db.prepare<[{ from: string; to: string; provider: string | null; kind: string | null }], { total: number }>(
    `SELECT COALESCE(SUM(cost_cents), 0) AS total FROM purchases
     WHERE bought_at >= @from AND bought_at < @to
       AND (@provider IS NULL OR provider = @provider) AND (@kind IS NULL OR kind = @kind)`,
  );

  return {
    record(purchase) {
      if (!Number.isInteger(purchase.costCents)) throw new RangeError(`cost must be integer cents: ${purchase.costCents}`);
      const result = insert.run(
        purchase.loanRequestId,
        purchase.kind,
        purchase.provider ?? null,
        purchase.costCents,
        isoFromMs(purchase.boughtAtMs),
        flag(purchase.ok),
        purchase.error ?? null,
        // Personal data never reaches the file (docs/store.md: what is stored).
        purchase.payload === undefined ? null : JSON.stringify(redactPersonalData(purchase.payload)),
      );
      return Number(result.lastInsertRowid);
    },
    forRequest(loanRequestId) {
      return byRequest.all(loanRequestId).map(fromRow);
    },
    spendCents(query) {
      const row = spend.get({
        from: isoFromMs(query.fromMs),
        to: isoFromMs(query.toMs),
        provider: query.provider ?? null,
        kind: query.kind ?? null,
      });
      return row?.total ?? 0;
    },
  };
}
