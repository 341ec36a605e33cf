/**
 * Offers, from intent to outcome. The intent row is written BEFORE the make_offer POST and is
 * unique per loan request: after a crash the row is still there, so the request can never be
 * offered twice, and an ambiguous POST leaves an 'unknown' row to settle, not to resend.
 *
 *   intent ──POST ok──> placed ──> accepted ──> funded
 *      │ 400 ─> refused     ├──────> rejected / expired
 *      │                    └──fund 201──> funded   (automate_fund false: lendbot's own fund call)
 *      └ timeout/reset ─> unknown ──(poll or "already made an offer")──> placed / refused / ...
 *
 * Offers without automate_fund carry a funding schedule (fund_attempts, next_fund_at): when the
 * fund call is tried next, so a restart neither forgets them nor tries them all at once.
 */
import type { Database } from 'better-sqlite3';
import { parseCents, type Cents, type LoanRequest, type Offer } from '../domain/index.js';
import type { OfferScope, ReservationQuery } from './book-offer.js';
import { OFFER_STATES, offerFromRow, type OfferRecord, type OfferRow, type OfferState } from './offer-row.js';
import { openOfferBookOf } from './open-offer-book.js';
import { createOfferListings, type ListingNote, type ListingScan } from './offer-listings.js';
import { createOfferResends, type ResendSchedule } from './offer-resends.js';
import type { OfferFate } from './offer-fate.js';
import {
  createOfferViews,
  type OfferView,
  type OfferViewPage,
  type OfferViewQuery,
  type OfferViewState,
  type OfferMonthCount,
} from './offer-view.js';
import { flag, isoFromMs, msFromIso } from './sql-values.js';

export { LIST_WINDOW_MS } from './offer-fate.js';
export type { ListingScan } from './offer-listings.js';
export type { ResendSchedule } from './offer-resends.js';

export interface IntentInput {
  request: LoanRequest;
  rate: number;
  automateFund: boolean;
  dryRun: boolean;
  atMs: number;
}

type IntentResult = { created: true; offer: OfferRecord } | { created: false; existing: OfferRecord };

/** When funding an offer by hand is tried next, and how many tries the service refused so far. */
interface FundSchedule {
  attempts: number;
  /** Clock milliseconds; null: at the next run. */
  nextAtMs: number | null;
}

export interface OffersRepository {
  /** Writes the intent to offer; refuses (created: false) when the request already has an offer row. */
  createIntent(input: IntentInput): IntentResult;
  get(id: number): OfferRecord | undefined;
  getByRequest(loanRequestId: number): OfferRecord | undefined;
  /** The POST succeeded: keep the service's offer. An offer already 'accepted' is stored as such. */
  markPlaced(id: number, offer: Offer, atMs: number): boolean;
  /** The service refused (400) with this text. */
  markRefused(id: number, serviceText: string, atMs: number): boolean;
  /** The POST may or may not have been applied: never resend; reconcile later. */
  markUnknown(id: number, errorText: string, atMs: number): boolean;
  /** Any other move (accepted, funded, rejected, expired), as reconciliation learns it. */
  setState(id: number, state: OfferState, atMs: number): boolean;
  listByState(states: readonly OfferState[]): OfferRecord[];
  /** Newest first (by id, the primary key), in one state or all, older than `beforeId`; `limit + 1` rows say whether more exist. */
  newest(query: { limit: number; state?: OfferState | undefined; beforeId?: number | undefined }): OfferRecord[];
  /** Live offers placed or funded that changed after `afterIso`, oldest change first (the notification cursor). */
  changedSince(afterIso: string, limit: number): OfferRecord[];
  /**
   * Money held back by pending offers, while no loan has been synced for their request:
   * - intent and unknown offers, whatever their age, until they are settled (an intent left by a
   *   crash may have reached the service);
   * - placed and accepted offers created no longer than `expiryMs` ago.
   * Only automate_fund offers count unless `includeManual` (risk.reserve_manual_offers);
   * `exceptOfferId` leaves one offer out (funding it needs the money it reserves).
   */
  reserved(query: ReservationQuery): Cents;
  /** Offers made (every state but refused) and their total amount on the UTC day holding `nowMs`. */
  dailyTotals(query: { nowMs: number } & OfferScope): { offers: number; amountCents: Cents };
  /**
   * Live offers lendbot funds itself (no automate_fund, with the service's offer id), placed or
   * accepted, created no longer than `expiryMs` ago (their reservation holds), whose next fund
   * attempt is due at `nowMs`. Oldest first.
   */
  dueForFunding(query: { nowMs: number; expiryMs: number }): OfferRecord[];
  fundSchedule(id: number): FundSchedule | undefined;
  /** Stores when to try funding next (after a refusal), or resets it (attempts 0: try at once). */
  scheduleFunding(id: number, schedule: FundSchedule): boolean;
  /** The re-sends of an offer whose outcome is unknown (offer-resends.ts). */
  resendSchedule(id: number): ResendSchedule | undefined;
  scheduleResend(id: number, schedule: ResendSchedule): boolean;
  /** Notes which open offers' requests a scan of the list showed or missed (offer-listings.ts). */
  noteListing(scan: ListingScan, atMs: number): ListingNote;
  /** What became of an offer the service took, as precisely as it lets us see (offer-fate.ts); undefined for one it never took. */
  fate(offer: OfferRecord, query: { nowMs: number; expiryMs: number }): OfferFate | undefined;
  /** One offer as every surface shows it: its reconciled state and whether it reserves (offer-view.ts). */
  view(offer: OfferRecord, query: OfferViewQuery): OfferView;
  /** Offers as shown, newest first, a page at a time, optionally in some states only. */
  views(page: OfferViewPage, query: OfferViewQuery): OfferView[];
  /** Every offer of the scope by month made and state as shown (offer-view.ts). */
  viewCountsByMonth(scope: OfferScope, query: OfferViewQuery): OfferMonthCount[];
  /** How many offers made since `sinceMs` are in each state as shown (live ones by default). */
  viewCounts(scope: OfferScope & { sinceMs: number }, query: OfferViewQuery): Record<OfferViewState, number>;
}

export function createOffersRepository(db: Database): OffersRepository {
  const insert = db.prepare(
    `INSERT INTO offers (loan_request_id, rate, automate_fund, total_amount_cents, risk_level, borrower_id,
       state, created_at, updated_at, dry_run)
     VALUES (?, ?, ?, ?, ?, ?, 'intent', ?, ?, ?)
     ON CONFLICT (loan_request_id) DO NOTHING`,
  );
  const byId = db.prepare<[number], OfferRow>('SELECT * FROM offers WHERE id = ?');
  const byRequest = db.prepare<[number], OfferRow>('SELECT * FROM offers WHERE loan_request_id = ?');
  const placed = db.prepare(
    'UPDATE offers SET state = ?, service_offer_id = ?, offer_json = ?, service_text = NULL, updated_at = ? WHERE id = ?',
  );
  const withText = db.prepare('UPDATE offers SET state = ?, service_text = ?, updated_at = ? WHERE id = ?');
  const stateOnly = db.prepare('UPDATE offers SET state = ?, updated_at = ? WHERE id = ?');
  const changed = db.prepare<[string, number], OfferRow>(
    `SELECT * FROM offers WHERE dry_run = 0 AND state IN ('placed', 'funded') AND updated_at > ? ORDER BY updated_at, id LIMIT ?`,
  );
  const dueFunding = db.prepare<[{ now: string; cutoff: string }], OfferRow>(
    `SELECT * FROM offers
     WHERE dry_run = 0 AND automate_fund = 0 AND service_offer_id IS NOT NULL AND state IN ('placed', 'accepted')
       AND created_at >= @cutoff AND (next_fund_at IS NULL OR next_fund_at <= @now)
     ORDER BY created_at, id`,
  );
  const readSchedule = db.prepare<[number], { fund_attempts: number; next_fund_at: string | null }>(
    'SELECT fund_attempts, next_fund_at FROM offers WHERE id = ?',
  );
  const writeSchedule = db.prepare('UPDATE offers SET fund_attempts = ?, next_fund_at = ? WHERE id = ?');
  const listings = createOfferListings(db);
  const resends = createOfferResends(db);
  const views = createOfferViews(db);
  const newestAll = db.prepare<[number, number], OfferRow>('SELECT * FROM offers WHERE id < ? ORDER BY id DESC LIMIT ?');
  const newestInState = db.prepare<[string, number, number], OfferRow>(
    'SELECT * FROM offers WHERE state = ? AND id < ? ORDER BY id DESC LIMIT ?',
  );

  const createIntent = db.transaction((input: IntentInput): IntentResult => {
    const at = isoFromMs(input.atMs);
    const { request } = input;
    const result = insert.run(
      request.id,
      input.rate,
      flag(input.automateFund),
      parseCents(request.total_amount),
      request.borrower_card_color,
      request.borrower.id,
      at,
      at,
      flag(input.dryRun),
    );
    const row = byRequest.get(request.id);
    if (row === undefined) throw new Error(`offer row for request ${request.id} vanished inside its transaction`);
    return result.changes === 1 ? { created: true, offer: offerFromRow(row) } : { created: false, existing: offerFromRow(row) };
  });

  return {
    createIntent: (input) => createIntent.immediate(input),
    get(id) {
      const row = byId.get(id);
      return row === undefined ? undefined : offerFromRow(row);
    },
    getByRequest(loanRequestId) {
      const row = byRequest.get(loanRequestId);
      return row === undefined ? undefined : offerFromRow(row);
    },
    markPlaced(id, offer, atMs) {
      const state: OfferState = offer.offer_status.toLowerCase() === 'accepted' ? 'accepted' : 'placed';
      return placed.run(state, offer.id, JSON.stringify(offer), isoFromMs(atMs), id).changes === 1;
    },
    markRefused(id, serviceText, atMs) {
      return withText.run('refused', serviceText, isoFromMs(atMs), id).changes === 1;
    },
    markUnknown(id, errorText, atMs) {
      return withText.run('unknown', errorText, isoFromMs(atMs), id).changes === 1;
    },
    setState(id, state, atMs) {
      if (!OFFER_STATES.includes(state)) throw new RangeError(`not an offer state: ${String(state)}`);
      return stateOnly.run(state, isoFromMs(atMs), id).changes === 1;
    },
    newest({ limit, state, beforeId }) {
      const before = beforeId ?? Number.MAX_SAFE_INTEGER;
      const rows = state === undefined ? newestAll.all(before, limit) : newestInState.all(state, before, limit);
      return rows.map(offerFromRow);
    },
    changedSince(afterIso, limit) {
      return changed.all(afterIso, limit).map(offerFromRow);
    },
    listByState(states) {
      if (states.length === 0) return [];
      const marks = states.map(() => '?').join(', ');
      const rows = db
        .prepare<OfferState[], OfferRow>(`SELECT * FROM offers WHERE state IN (${marks}) ORDER BY created_at, id`)
        .all(...states);
      return rows.map(offerFromRow);
    },
    // Both kept in memory by the open-offer book, which agrees with the SQL that defines them.
    reserved: (query) => openOfferBookOf(db).reserved(query),
    dailyTotals: (query) => openOfferBookOf(db).daily(query),
    dueForFunding(query) {
      return dueFunding.all({ now: isoFromMs(query.nowMs), cutoff: isoFromMs(query.nowMs - query.expiryMs) }).map(offerFromRow);
    },
    fundSchedule(id) {
      const row = readSchedule.get(id);
      if (row === undefined) return undefined;
      return { attempts: row.fund_attempts, nextAtMs: row.next_fund_at === null ? null : msFromIso(row.next_fund_at) };
    },
    resendSchedule: (id) => resends.schedule(id),
    scheduleResend: (id, schedule) => resends.record(id, schedule),
    noteListing: (scan, atMs) => listings.note(scan, atMs),
    fate: (offer, query) => listings.fate(offer, query),
    view: (offer, query) => views.of(offer, query),
    views: (page, query) => views.newest(page, query),
    viewCounts: (scope, query) => views.counts(scope, query),
    viewCountsByMonth: (scope, query) => views.countsByMonth(scope, query),
    scheduleFunding(id, schedule) {
      const next = schedule.nextAtMs === null ? null : isoFromMs(schedule.nextAtMs);
      return writeSchedule.run(schedule.attempts, next, id).changes === 1;
    },
  };
}
