/**
 * Whether the requests of our open offers are still listed (table offer_listings, migration 7),
 * and the fate of an offer read from it (offer-fate.ts). The poll notes each scan here; the
 * recording export reads the fates. Only offers the service took (or a dry run's, which it never
 * answers) and nobody answered yet ('placed') are watched, for as long as their request can be
 * listed (30 days).
 */
import type { Database } from 'better-sqlite3';
import { LIST_WINDOW_MS, offerFate, type OfferFate, type OfferListing } from './offer-fate.js';
import type { OfferRecord } from './offer-row.js';
import { isoFromMs } from './sql-values.js';

/** One scan of the loan request list, as the poll read it. */
export interface ListingScan {
  /** The requests the scan listed. */
  listedIds: ReadonlySet<number>;
  /**
   * Whether the scan would have listed this request if it were open: always for a complete scan;
   * for a filtered one, only requests its filters cover; never for a scan cut short.
   */
  wouldList: (loanRequestId: number) => boolean;
  /** When the scan began: an offer placed after that may be missing from it and still be open. */
  startedMs?: number | undefined;
}

export interface ListingNote {
  /** Watched offers whose listing the scan wrote (listed again, or last written LISTED_REFRESH_MS ago). */
  listed: number;
  /** Watched offers whose request the scan missed for the first time. */
  left: number;
}

interface MissingRow {
  id: number;
  loan_request_id: number;
  created_at: string;
}

export interface OfferListings {
  note(scan: ListingScan, atMs: number): ListingNote;
  get(offerId: number): OfferListing;
  /**
   * The fate of an offer the service took, or undefined for one it never (knowingly) took: a dry
   * run's, an intent, an unknown or refused attempt, an ambiguous attempt given up on.
   */
  fate(offer: OfferRecord, query: { nowMs: number; expiryMs: number }): OfferFate | undefined;
}

// A day beyond the window: a request is listed 30 days from its creation, our offer came later.
const WATCH_MS = LIST_WINDOW_MS + 86_400_000;
/**
 * How stale `listed_until` may grow before a scan that lists the request rewrites it: the fates
 * need it to the hour (offer-fate.ts), and rewriting every watched row at every poll would cost
 * milliseconds per poll with thousands of offers out.
 */
const LISTED_REFRESH_MS = 10 * 60_000;

export function createOfferListings(db: Database): OfferListings {
  // Both statements run in SQLite over the scan's ids (as JSON): a poll with thousands of offers
  // out reads back only the few that changed.
  // A dry run's offers are watched too: their requests' fates are the paper book's (paper-book.ts).
  const watchedWhere = "o.state = 'placed' AND o.created_at >= @cutoff";
  const listed = db.prepare<[{ ids: string; at: string; cutoff: string; stale: string }]>(
    // "WHERE ... AND true" keeps SQLite's upsert-after-SELECT parse unambiguous.
    `INSERT INTO offer_listings (offer_id, listed_until, left_list_at)
     SELECT o.id, @at, NULL FROM offers o LEFT JOIN offer_listings l ON l.offer_id = o.id
     WHERE ${watchedWhere} AND o.loan_request_id IN (SELECT value FROM json_each(@ids))
       AND (l.offer_id IS NULL OR l.left_list_at IS NOT NULL OR l.listed_until IS NULL OR l.listed_until <= @stale) AND true
     ON CONFLICT (offer_id) DO UPDATE SET listed_until = excluded.listed_until, left_list_at = NULL`,
  );
  const missing = db.prepare<[{ ids: string; cutoff: string }], MissingRow>(
    `SELECT o.id, o.loan_request_id, o.created_at FROM offers o LEFT JOIN offer_listings l ON l.offer_id = o.id
     WHERE ${watchedWhere} AND l.left_list_at IS NULL AND o.loan_request_id NOT IN (SELECT value FROM json_each(@ids))`,
  );
  const left = db.prepare<[{ id: number; at: string }]>(
    `INSERT INTO offer_listings (offer_id, listed_until, left_list_at) VALUES (@id, NULL, @at)
     ON CONFLICT (offer_id) DO UPDATE SET left_list_at = excluded.left_list_at`,
  );
  const byOffer = db.prepare<[number], { listed_until: string | null; left_list_at: string | null }>(
    'SELECT listed_until, left_list_at FROM offer_listings WHERE offer_id = ?',
  );
  const requestCreated = db.prepare<[number], { created: string | null }>(
    "SELECT json_extract(raw_json, '$.created') AS created FROM requests_seen WHERE loan_request_id = ?",
  );

  const note = db.transaction((scan: ListingScan, atMs: number): ListingNote => {
    const at = isoFromMs(atMs);
    const ids = JSON.stringify([...scan.listedIds]);
    const cutoff = isoFromMs(atMs - WATCH_MS);
    const written = listed.run({ ids, at, cutoff, stale: isoFromMs(atMs - LISTED_REFRESH_MS) }).changes;
    let gone = 0;
    for (const row of missing.all({ ids, cutoff })) {
      if (scan.startedMs !== undefined && Date.parse(row.created_at) >= scan.startedMs) continue;
      if (!scan.wouldList(row.loan_request_id)) continue;
      left.run({ id: row.id, at });
      gone += 1;
    }
    return { listed: written, left: gone };
  });

  const get = (offerId: number): OfferListing => {
    const row = byOffer.get(offerId);
    return { listedUntil: row?.listed_until ?? null, leftListAt: row?.left_list_at ?? null };
  };

  return {
    note: (scan, atMs) => note.immediate(scan, atMs),
    get,
    fate(offer, query) {
      if (offer.dryRun || offer.state === 'intent' || offer.state === 'unknown' || offer.state === 'refused') return undefined;
      // Expired without the service's offer id: an ambiguous attempt the reconciler gave up on.
      if (offer.state === 'expired' && offer.serviceOfferId === null) return undefined;
      const created = requestCreated.get(offer.loanRequestId)?.created ?? null;
      const createdMs = created === null ? Number.NaN : Date.parse(created);
      return offerFate({
        state: offer.state,
        answeredStatus: answeredStatus(offer.offerJson),
        createdAt: offer.createdAt,
        listing: get(offer.id),
        requestCreatedMs: Number.isFinite(createdMs) ? createdMs : null,
        nowMs: query.nowMs,
        expiryMs: query.expiryMs,
      });
    },
  };
}

/** offer_status of the stored make_offer answer. */
function answeredStatus(offerJson: string | null): string | null {
  if (offerJson === null) return null;
  const status = (JSON.parse(offerJson) as { offer_status?: unknown }).offer_status;
  return typeof status === 'string' ? status : null;
}
