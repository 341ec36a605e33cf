/**
 * Enrichment bought about a request (banking data, third-party scores), flat-priced providers'
 * monthly subscriptions, and what each cost: the spend ledger that enforces each strategy's
 * monthly data budget reads its sums from here.
 */
import { redactPersonalData } from './redact-personal-data.js';
import type { Database } from 'better-sqlite3';
import type { Cents } from '../domain/index.js';
import { flag, isoFromMs } from './sql-values.js';

/**
 * `subscription`: a flat-priced provider's monthly fee (one row a provider a UTC month).
 * `borrower_history`: marketplace 4.9, free (cost 0), kept so exports and explanations have it.
 */
type PurchaseKind = 'banking_data' | 'borrower_history' | 'provider' | 'subscription';

interface PurchaseInput {
  loanRequestId: number;
  kind: PurchaseKind;
  /** The provider's name for `provider` purchases; omitted for banking data. */
  provider?: string | undefined;
  /** The strategy whose decision asked (its budget counts the cost); omitted for an agent's. */
  strategy?: string | undefined;
  costCents: Cents;
  boughtAtMs: number;
  ok: boolean;
  /** The failure text when `ok` is false. */
  error?: string | undefined;
  /** What was bought, as returned by the service. */
  payload?: unknown;
}

interface Purchase {
  id: number;
  loanRequestId: number;
  kind: PurchaseKind;
  provider: string | null;
  strategy: string | null;
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
  strategy: string | null;
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
  /** Total cost of the purchases `strategy` asked for in [from, to): what its own budget is checked against. */
  strategySpendCents(query: { strategy: string; fromMs: number; toMs: number }): Cents;
  /** The subscription rows charged in [from, to), oldest first. */
  subscriptions(query: { fromMs: number; toMs: number }): Purchase[];
}

function fromRow(row: PurchaseRow): Purchase {
  return {
    id: row.id,
    loanRequestId: row.loan_request_id,
    kind: row.kind,
    provider: row.provider,
    strategy: row.strategy,
    costCents: row.cost_cents,
    boughtAt: row.bought_at,
    ok: row.ok === 1,
    error: row.error,
    payloadJson: row.payload_json,
  };
}

export function createPurchasesRepository(db: Database): PurchasesRepository {
  const insert = db.prepare(
    `INSERT INTO purchases (loan_request_id, kind, provider, strategy, cost_cents, bought_at, ok, error, payload_json)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const byRequest = db.prepare<[number], PurchaseRow>('SELECT * FROM purchases WHERE loan_request_id = ? ORDER BY bought_at, id');
  // NULL parameters mean "any": one prepared statement serves every filter combination.
  const spend = db.prepare<[{ from: string; to: string; provider: string | null; kind: string | null }], { total: number }>(
    `SELECT COALESCE(SUM(cost_cents), 0) AS total FROM purchases
     WHERE bought_at >= @from AND bought_at < @to
       AND (@provider IS NULL OR provider = @provider) AND (@kind IS NULL OR kind = @kind)`,
  );
  // Its own statement (no "any" parameters), so the partial index purchases_strategy_spend serves it.
  const strategySpend = db.prepare<[{ strategy: string; from: string; to: string }], { total: number }>(
    `SELECT COALESCE(SUM(cost_cents), 0) AS total FROM purchases
     WHERE strategy = @strategy AND bought_at >= @from AND bought_at < @to AND cost_cents > 0`,
  );
  const subscriptions = db.prepare<[{ from: string; to: string }], PurchaseRow>(
    `SELECT * FROM purchases WHERE kind = 'subscription' AND bought_at >= @from AND bought_at < @to ORDER BY bought_at, id`,
  );

  return {
    record(purchase) {
      if (!Number.isInteger(purchase.costCents)) throw new RangeError(`cost must be integer cents: ${purchase.costCents}`);
      const result = insert.run(
        purchase.loanRequestId,
        purchase.kind,
        purchase.provider ?? null,
        purchase.strategy ?? null,
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
    strategySpendCents(query) {
      return strategySpend.get({ strategy: query.strategy, from: isoFromMs(query.fromMs), to: isoFromMs(query.toMs) })?.total ?? 0;
    },
    subscriptions(query) {
      return subscriptions.all({ from: isoFromMs(query.fromMs), to: isoFromMs(query.toMs) }).map(fromRow);
    },
  };
}
