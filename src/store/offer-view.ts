/**
 * FAST PATH of src/store/offer-fate.ts:offerFate; equivalence: test/store/offer-view.test.ts; change both or neither.
 *
 * The one reading of an offer that every surface shows (`lendbot decisions` and `status`, the
 * operator API and dashboard, the agent connector, /metrics): its state reconciled with what the
 * service has shown, and whether it still holds money back. The offers table keeps the daemon's
 * own bookkeeping (`recordedState`): a row stays 'placed' after its request left the list or its
 * life ended, because the service never says so (offer-fate.ts). Showing that column made the
 * dashboard call months-old offers "placed" while `decisions` called them expired or lost.
 *
 *   sending   the intent is written, the POST not answered yet
 *   unknown   the POST may or may not have reached the service (never resent); still settling
 *   refused   the service answered 400
 *   placed    the service took it; nobody has answered yet and its life has not ended
 *   accepted  the borrower took it: a loan of ours appeared, still pending (not funded yet)
 *   funded    a loan of ours for the request is running (or paid off, or in collection), or
 *             our own fund call for it succeeded (the loan may show pending a while longer)
 *   rejected  the service said so
 *   lost      the request left the list without a loan of ours while our offer was out (taken by
 *             another lender, canceled or closed; the service does not say which)
 *   expired   the offer's life (risk.offer_expiry_hours) ended with no answer (an ambiguous attempt
 *             given up on once its request left the list included)
 *
 * `reserving` is the guard's own rule (book-offer.ts `reserves`), asked per offer, so the
 * offers shown as reserving add up to the reserved figure on every surface. A lost offer keeps
 * its reservation until its life ends: the service has not said we lost it, and an acceptance
 * shows up only at the next account sync (the safe reading; docs/store.md, "Offer states").
 *
 * Fast path: the state is computed in SQL (STATE_SQL), so counting offers by state or filtering a
 * page by state stays inside SQLite instead of reading every row into JavaScript. The readable
 * reference is offerFate (offer-fate.ts) with the loan first; test/store/offer-view.test.ts
 * ("agrees with offerFate") holds the two equal over every recorded state, listing and age.
 */
import type { Database } from 'better-sqlite3';
import { offerFromRow, type OfferRecord, type OfferRow, type OfferState } from './offer-row.js';
import { PAID_OUT_SQL, reserves, type OfferScope } from './book-offer.js';
import { flag, isoFromMs } from './sql-values.js';

export const OFFER_VIEW_STATES = ['sending', 'unknown', 'refused', 'placed', 'accepted', 'funded', 'rejected', 'lost', 'expired'] as const;
export type OfferViewState = (typeof OFFER_VIEW_STATES)[number];

/** An offer as the lender is shown it. */
export interface OfferView extends Omit<OfferRecord, 'state'> {
  state: OfferViewState;
  /** The offers table's own state (the daemon's bookkeeping), for whoever debugs it. */
  recordedState: OfferState;
  /** Whether the offer holds money back from new offers now (counted in "reserved"). */
  reserving: boolean;
}

/** How to read offers the service never answered: now (the daemon's clock) and the guard's settings. */
export interface OfferViewQuery {
  nowMs: number;
  /** risk.offer_expiry_hours in ms: an offer's life. */
  expiryMs: number;
  /** risk.reserve_manual_offers: offers without automate_fund reserve too. */
  includeManual: boolean;
}

export interface OfferViewPage {
  limit: number;
  /** Only the live offers (false) or a dry run's (true); undefined: both. */
  dryRun?: boolean | undefined;
  /** Only offers in these states (default every state). */
  states?: readonly OfferViewState[] | undefined;
  /** Only offers with a smaller id (the previous page's last). */
  beforeId?: number | undefined;
}

export interface OfferViews {
  /** One offer as shown. */
  of(offer: OfferRecord, query: OfferViewQuery): OfferView;
  /** Newest first (by id), up to `limit`. */
  newest(page: OfferViewPage, query: OfferViewQuery): OfferView[];
  /** How many offers made since `sinceMs` are in each state, in the scope (live by default). */
  counts(scope: OfferScope & { sinceMs: number }, query: OfferViewQuery): Record<OfferViewState, number>;
  /** Every offer of the scope by the UTC month it was made ("2026-03") and state: how many, and their total. */
  countsByMonth(scope: OfferScope, query: OfferViewQuery): OfferMonthCount[];
}

/** The offers of one month in one state. */
export interface OfferMonthCount {
  month: string;
  state: OfferViewState;
  offers: number;
  totalCents: number;
}

interface ViewRow extends OfferRow {
  view_state: OfferViewState;
  has_loan: 0 | 1;
  paid_out: 0 | 1;
}

/** The parameters STATE_SQL reads: the cutoff of an offer's life and its length. */
interface StateParams {
  /** now − expiry (ISO): an offer created before it has lived its life. */
  cutoff: string;
  /** The expiry as an SQLite modifier ("+259200.000 seconds"): created_at shifted by it is the life's end. */
  life: string;
}

// The newest loan of ours for the request (loans_request index), joined as lo: one look-up a row.
const OUR_LOAN = 'LEFT JOIN loans lo ON lo.id = (SELECT MAX(id) FROM loans WHERE loan_request_id = o.loan_request_id)';
// ISO times as isoFromMs writes them (sql-values.ts), so they compare as text.
const LIFE_END = "strftime('%Y-%m-%dT%H:%M:%fZ', o.created_at, @life)";

/**
 * The table above as one SQL expression over offers o, offer_listings l and our loan lo: a loan
 * of ours first (a dry run has none; pending is accepted unless our fund call already
 * succeeded), then what the row records, then offerFate's reading of a placed offer: the
 * service's answer said rejected; the request left the list (seen listed after the offer's life:
 * expired; else lost); its life ended (expired); else placed.
 */
const STATE_SQL = `CASE
    WHEN o.dry_run = 0 AND lo.id IS NOT NULL THEN CASE WHEN lower(lo.status) = 'pending' AND o.state <> 'funded' THEN 'accepted' ELSE 'funded' END
    WHEN o.state = 'intent' THEN 'sending'
    WHEN o.state <> 'placed' THEN o.state
    WHEN lower(json_extract(o.offer_json, '$.offer_status')) = 'rejected' THEN 'rejected'
    WHEN l.left_list_at IS NOT NULL THEN CASE WHEN l.listed_until > ${LIFE_END} THEN 'expired' ELSE 'lost' END
    WHEN o.created_at < @cutoff THEN 'expired'
    ELSE 'placed'
  END`;

const FROM = `FROM offers o LEFT JOIN offer_listings l ON l.offer_id = o.id ${OUR_LOAN}`;
const VIEW_SELECT = `SELECT o.*, ${STATE_SQL} AS view_state, lo.id IS NOT NULL AS has_loan, ${PAID_OUT_SQL} AS paid_out ${FROM}`;

function stateParams(query: OfferViewQuery): StateParams {
  return { cutoff: isoFromMs(query.nowMs - query.expiryMs), life: `+${(query.expiryMs / 1000).toFixed(3)} seconds` };
}

function toView(row: ViewRow, query: OfferViewQuery): OfferView {
  const record = offerFromRow(row);
  const reserving = reserves(
    { ...record, createdMs: Date.parse(record.createdAt), hasLoan: row.has_loan === 1, paidOut: row.paid_out === 1 },
    { nowMs: query.nowMs, expiryMs: query.expiryMs, dryRun: record.dryRun, includeManual: query.includeManual },
    query.nowMs - query.expiryMs,
  );
  return { ...record, state: row.view_state, recordedState: record.state, reserving };
}

export function createOfferViews(db: Database): OfferViews {
  const byId = db.prepare<[StateParams & { id: number }], ViewRow>(`${VIEW_SELECT} WHERE o.id = @id`);
  // Newest first by the primary key; the state filter (a JSON array, or NULL for every state)
  // runs in SQLite, so a page of a rare state never reads the other rows into JavaScript.
  const page = db.prepare<[StateParams & { before: number; dryRun: number; states: string | null; limit: number }], ViewRow>(
    `SELECT * FROM (${VIEW_SELECT} WHERE o.id < @before AND (@dryRun < 0 OR o.dry_run = @dryRun))
     WHERE @states IS NULL OR view_state IN (SELECT value FROM json_each(@states))
     ORDER BY id DESC LIMIT @limit`,
  );
  // A range of the creation index (migration 13), not every offer ever made: about 7 µs an offer
  // in the range (60 ms for 10,000 made in the last 30 days, 0.6 s for 100,000).
  const counted = db.prepare<[StateParams & { dryRun: number; since: string }], { view_state: OfferViewState; n: number }>(
    // Only the state: the offers' other columns (their stored answers) are never read.
    `SELECT ${STATE_SQL} AS view_state, COUNT(*) AS n ${FROM} WHERE o.created_at >= @since AND o.dry_run = @dryRun GROUP BY 1`,
  );

  // One row a month and state (the drift report, ops/drift/): bounded by the book's age.
  const byMonth = db.prepare<[StateParams & { dryRun: number }], OfferMonthCount>(
    `SELECT substr(o.created_at, 1, 7) AS month, ${STATE_SQL} AS state, COUNT(*) AS offers, SUM(o.total_amount_cents) AS totalCents
     ${FROM} WHERE o.dry_run = @dryRun GROUP BY 1, 2 ORDER BY 1, 2`,
  );

  return {
    of(offer, query) {
      const row = byId.get({ ...stateParams(query), id: offer.id });
      if (row === undefined) throw new Error(`offer ${offer.id} is not in the store`);
      return toView(row, query);
    },
    newest(query, viewQuery) {
      if (query.limit <= 0) return [];
      const rows = page.all({
        ...stateParams(viewQuery),
        before: query.beforeId ?? Number.MAX_SAFE_INTEGER,
        // -1: both scopes.
        dryRun: query.dryRun === undefined ? -1 : flag(query.dryRun),
        states: query.states === undefined ? null : JSON.stringify(query.states),
        limit: query.limit,
      });
      return rows.map((row) => toView(row, viewQuery));
    },
    counts(scope, query) {
      const counts = Object.fromEntries(OFFER_VIEW_STATES.map((state) => [state, 0])) as Record<OfferViewState, number>;
      for (const row of counted.all({ ...stateParams(query), dryRun: flag(scope.dryRun ?? false), since: isoFromMs(scope.sinceMs) }))
        counts[row.view_state] += row.n;
      return counts;
    },
    countsByMonth(scope, query) {
      return byMonth.all({ ...stateParams(query), dryRun: flag(scope.dryRun ?? false) });
    },
  };
}
