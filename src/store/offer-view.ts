/**
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
 *   funded    a loan of ours for the request is running (or paid off, or in collection)
 *   rejected  the service said so
 *   lost      the request left the list without a loan of ours while our offer was out (taken by
 *             another lender, canceled or closed; the service does not say which)
 *   expired   the offer's life (risk.offer_expiry_hours) ended with no answer (an ambiguous attempt
 *             given up on once its request left the list included)
 *
 * `reserving` is the guard's own rule (open-offer-book.ts `reserves`), asked per offer, so the
 * offers shown as reserving add up to the reserved figure on every surface. A lost offer keeps
 * its reservation until its life ends: the service has not said we lost it, and an acceptance
 * shows up only at the next account sync (the safe reading; docs/store.md, "Offer states").
 */
import type { Database } from 'better-sqlite3';
import { offerFate } from './offer-fate.js';
import { answeredStatus } from './offer-listings.js';
import { offerFromRow, type OfferRecord, type OfferRow, type OfferScope, type OfferState } from './offers-repository.js';
import { reserves } from './open-offer-book.js';

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
  /** How many offers are in each state, in the scope (live by default). */
  counts(scope: OfferScope, query: OfferViewQuery): Record<OfferViewState, number>;
}

interface ViewRow extends OfferRow {
  listed_until: string | null;
  left_list_at: string | null;
  request_created: string | null;
  /** The newest loan of ours for the request, its status in lower case; null: none synced. */
  loan_status: string | null;
}

// Everything the reading needs in one row: the listing (offer_listings), the request's creation
// (requests_seen) and our loan's status, each read by its key or index.
const VIEW_SELECT = `
  SELECT o.*, l.listed_until, l.left_list_at, json_extract(r.raw_json, '$.created') AS request_created,
    (SELECT lower(status) FROM loans WHERE loan_request_id = o.loan_request_id ORDER BY id DESC LIMIT 1) AS loan_status
  FROM offers o
  LEFT JOIN offer_listings l ON l.offer_id = o.id
  LEFT JOIN requests_seen r ON r.loan_request_id = o.loan_request_id`;

const RECORDED_ONLY: Partial<Record<OfferState, OfferViewState>> = { intent: 'sending', unknown: 'unknown', refused: 'refused' };

/** The state shown for one offer; see the table above. */
export function viewState(row: ViewRow, query: OfferViewQuery): OfferViewState {
  // A loan of ours for the request is the service's own word: it beats anything recorded.
  if (row.loan_status !== null && row.dry_run === 0) return row.loan_status === 'pending' ? 'accepted' : 'funded';
  const recorded = RECORDED_ONLY[row.state];
  if (recorded !== undefined) return recorded;
  if (row.state === 'funded') return 'funded';
  // Recorded expired: the daemon gave up on an ambiguous attempt (its request left the list, its life ended).
  if (row.state === 'expired') return 'expired';
  const createdMs = row.request_created === null ? Number.NaN : Date.parse(row.request_created);
  const { fate } = offerFate({
    state: row.state,
    answeredStatus: answeredStatus(row.offer_json),
    createdAt: row.created_at,
    listing: { listedUntil: row.listed_until, leftListAt: row.left_list_at },
    requestCreatedMs: Number.isFinite(createdMs) ? createdMs : null,
    nowMs: query.nowMs,
    expiryMs: query.expiryMs,
  });
  return fate === 'pending' ? 'placed' : fate;
}

function toView(row: ViewRow, query: OfferViewQuery): OfferView {
  const record = offerFromRow(row);
  const reserving = reserves(
    { ...record, createdMs: Date.parse(record.createdAt), hasLoan: row.loan_status !== null },
    { nowMs: query.nowMs, expiryMs: query.expiryMs, dryRun: record.dryRun, includeManual: query.includeManual },
    query.nowMs - query.expiryMs,
  );
  return { ...record, state: viewState(row, query), recordedState: record.state, reserving };
}

/** Zero offers in every state, in the order of OFFER_VIEW_STATES. */
function noCounts(): Record<OfferViewState, number> {
  return Object.fromEntries(OFFER_VIEW_STATES.map((state) => [state, 0])) as Record<OfferViewState, number>;
}

export function createOfferViews(db: Database): OfferViews {
  const byId = db.prepare<[number], ViewRow>(`${VIEW_SELECT} WHERE o.id = ?`);
  // Rows are streamed (iterate), newest first, until the page is full: a state filter reads
  // further down, never the whole table into memory.
  const newestRows = db.prepare<[{ before: number; dryRun: number }], ViewRow>(
    `${VIEW_SELECT} WHERE o.id < @before AND (@dryRun < 0 OR o.dry_run = @dryRun) ORDER BY o.id DESC`,
  );
  // -1: both scopes.
  const scopeFlag = (dryRun: boolean | undefined): number => (dryRun === undefined ? -1 : dryRun ? 1 : 0);

  return {
    of(offer, query) {
      const row = byId.get(offer.id);
      if (row === undefined) throw new Error(`offer ${offer.id} is not in the store`);
      return toView(row, query);
    },
    newest(page, query) {
      const found: OfferView[] = [];
      if (page.limit <= 0) return found;
      for (const row of newestRows.iterate({ before: page.beforeId ?? Number.MAX_SAFE_INTEGER, dryRun: scopeFlag(page.dryRun) })) {
        const view = toView(row, query);
        if (page.states !== undefined && !page.states.includes(view.state)) continue;
        found.push(view);
        if (found.length === page.limit) break;
      }
      return found;
    },
    counts(scope, query) {
      const counts = noCounts();
      for (const row of newestRows.iterate({ before: Number.MAX_SAFE_INTEGER, dryRun: scopeFlag(scope.dryRun ?? false) })) counts[viewState(row, query)] += 1;
      return counts;
    },
  };
}
