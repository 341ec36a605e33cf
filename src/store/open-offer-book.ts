/**
 * The guard's figures over offers (open exposure, reservations, today's totals), answered from
 * memory instead of summed by queries before every offer: those queries grow with the offers
 * (1.5 ms from 1,000 open offers, 10 ms from 10,000; the book 0.17 and 1.0 ms: bench/guard-figures.ts),
 * and the guard runs on the way to every POST.
 *
 * The book holds the offers that can count: every offer created since `horizonMs`, and older ones
 * still pending without a synced loan (intent, unknown, accepted, funded). Temporary triggers
 * (this connection only, no schema change) note every changed offer id in a temporary table;
 * that table is transactional, so a rolled-back write notes nothing. Before answering, the book
 * re-reads just the noted rows. It reloads everything when loans change (or anything a loan's
 * attribution reads), when another connection committed (PRAGMA data_version), and when asked
 * about a time before its horizon. The queries it replaces stay, as `recount`: tests check the
 * book against them after every kind of change, and a question asked inside an open transaction
 * is answered by them.
 */
import type { Database } from 'better-sqlite3';
import type { Cents } from '../domain/index.js';
import type { OfferScope, OfferState, ReservationQuery } from './offers-repository.js';
import { flag, isoFromMs, msFromIso, utcDayBounds } from './sql-values.js';

export interface ExposureSummary {
  totalCents: Cents;
  /** Per borrower id; loans whose borrower is not known to the store only count in the total. */
  byBorrowerCents: ReadonlyMap<number, Cents>;
  /** Per risk level (0 to 4); exposure of unknown level only counts in the total. */
  byRiskLevelCents: Record<number, Cents>;
}

export type ExposureQuery = { nowMs: number; expiryMs: number } & OfferScope;
export type DailyQuery = { nowMs: number } & OfferScope;
export interface DailyTotals {
  offers: number;
  amountCents: Cents;
}

/** The three figures, each as the book answers it and as the SQL recount does. */
export interface GuardFigures {
  exposure(query: ExposureQuery): ExposureSummary;
  reserved(query: ReservationQuery): Cents;
  daily(query: DailyQuery): DailyTotals;
}

export interface BookOffer {
  id: number;
  automateFund: boolean;
  totalCents: Cents;
  riskLevel: number;
  borrowerId: number;
  state: OfferState;
  createdMs: number;
  dryRun: boolean;
  /** A loan for its request is synced: the loan counts instead (see exposure-repository.ts). */
  hasLoan: boolean;
}

interface BookOfferRow {
  id: number;
  automate_fund: 0 | 1;
  total_amount_cents: number;
  risk_level: number;
  borrower_id: number;
  state: OfferState;
  created_at: string;
  dry_run: 0 | 1;
  has_loan: 0 | 1;
}

interface GroupRow {
  borrower_id: number | null;
  risk_level: number | null;
  cents: number;
}

/** Pending offers count whatever their age (until settled or a loan replaces them). */
const PENDING_STATES: ReadonlySet<OfferState> = new Set(['intent', 'unknown', 'accepted', 'funded']);
/** Noted in the change table instead of an offer id: reload everything. */
const RELOAD = 0;

const OFFER_COLUMNS = `o.id, o.automate_fund, o.total_amount_cents, o.risk_level, o.borrower_id, o.state, o.created_at, o.dry_run,
  EXISTS (SELECT 1 FROM loans l WHERE l.loan_request_id = o.loan_request_id) AS has_loan`;

// Offers' state moves are noted by id; anything that changes what a loan is attributed to (or
// loans themselves) asks for a reload. An id is noted once, so the table stays as small as the
// set of offers changed since the last answer. (Not a unique key: an outer statement's conflict
// clause would override OR IGNORE inside a trigger and fail the write.)
function note(id: string): string {
  return `INSERT INTO temp.offer_book_changes SELECT (${id}) WHERE NOT EXISTS (SELECT 1 FROM temp.offer_book_changes WHERE offer_id = (${id}));`;
}
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
`;

/** The SQL that defines each figure; the book must always agree with it. */
function sqlRecount(db: Database): GuardFigures {
  const exposureRows = db.prepare<[{ dryRun: number; cutoff: string }], GroupRow>(
    `WITH open_offers AS (
       SELECT o.borrower_id, o.risk_level, o.total_amount_cents AS cents FROM offers o
       WHERE o.dry_run = @dryRun
         AND ((o.state = 'placed' AND o.created_at >= @cutoff) OR o.state IN ('intent', 'unknown', 'accepted', 'funded'))
         AND NOT EXISTS (SELECT 1 FROM loans l WHERE l.loan_request_id = o.loan_request_id)
     )
     SELECT borrower_id, risk_level, SUM(cents) AS cents
     FROM (SELECT * FROM open_offers UNION ALL ${OPEN_LOANS})
     GROUP BY borrower_id, risk_level`,
  );
  const reservedSum = db.prepare<[{ dryRun: number; manual: number; cutoff: string; except: number }], { total: number }>(
    `SELECT COALESCE(SUM(o.total_amount_cents), 0) AS total FROM offers o
     WHERE o.dry_run = @dryRun AND (o.automate_fund = 1 OR @manual = 1) AND o.id <> @except
       AND (o.state IN ('intent', 'unknown') OR (o.state IN ('placed', 'accepted') AND o.created_at >= @cutoff))
       AND (NOT EXISTS (SELECT 1 FROM loans l WHERE l.loan_request_id = o.loan_request_id)
            -- An accepted offer we fund by hand is listed as a pending loan before our fund
            -- call moves any money: it keeps its money until the call succeeds (funded).
            OR (o.automate_fund = 0 AND o.state = 'accepted'))`,
  );
  const dailyRow = db.prepare<[number, string, string], { offers: number; total: number }>(
    `SELECT COUNT(*) AS offers, COALESCE(SUM(total_amount_cents), 0) AS total FROM offers
     WHERE dry_run = ? AND state <> 'refused' AND created_at >= ? AND created_at < ?`,
  );
  return {
    exposure: (query) => summarize(exposureRows.all({ dryRun: flag(query.dryRun ?? false), cutoff: isoFromMs(query.nowMs - query.expiryMs) })),
    reserved: (query) =>
      reservedSum.get({
        dryRun: flag(query.dryRun ?? false),
        manual: flag(query.includeManual ?? false),
        cutoff: isoFromMs(query.nowMs - query.expiryMs),
        except: query.exceptOfferId ?? -1,
      })?.total ?? 0,
    daily(query) {
      const { startMs, endMs } = utcDayBounds(query.nowMs);
      const row = dailyRow.get(flag(query.dryRun ?? false), isoFromMs(startMs), isoFromMs(endMs));
      return { offers: row?.offers ?? 0, amountCents: row?.total ?? 0 };
    },
  };
}

/**
 * Synced loans not paid off, attributed to the borrower and risk level their offer or request
 * names. Each counts what the service says is still owed, never less than nothing, and never less
 * than the total lendbot itself offered on its request (a live offer, in any state: the loan shows
 * it was lent), so a balance the service reports wrong (negative, zero before the loan is paid
 * off) cannot lift the exposure cap (docs/risk-guard.md, "Exposure"). SQLite's MAX of several
 * values is their largest; none of them is NULL here.
 */
const OPEN_LOANS = `
  SELECT COALESCE(o.borrower_id, r.borrower_id) AS borrower_id,
         COALESCE(l.risk_level, o.risk_level, r.risk_level) AS risk_level,
         MAX(l.remaining_cents, 0, CASE WHEN o.dry_run = 0 THEN o.total_amount_cents ELSE 0 END) AS cents
  FROM loans l
  LEFT JOIN offers o ON o.loan_request_id = l.loan_request_id
  LEFT JOIN requests_seen r ON r.loan_request_id = l.loan_request_id
  WHERE l.paid_off = 0 AND l.list_status <> 'completed'`;

/** An exposure summary being added up. */
interface ExposureTally {
  totalCents: Cents;
  byBorrowerCents: Map<number, Cents>;
  byRiskLevelCents: Record<number, Cents>;
}

function summarize(rows: Iterable<GroupRow>): ExposureTally {
  const summary: ExposureTally = { totalCents: 0, byBorrowerCents: new Map(), byRiskLevelCents: {} };
  for (const row of rows) addExposure(summary, row.borrower_id, row.risk_level, row.cents);
  return summary;
}

function addExposure(summary: ExposureTally, borrowerId: number | null, riskLevel: number | null, cents: Cents): void {
  summary.totalCents += cents;
  if (borrowerId !== null) summary.byBorrowerCents.set(borrowerId, (summary.byBorrowerCents.get(borrowerId) ?? 0) + cents);
  if (riskLevel !== null) summary.byRiskLevelCents[riskLevel] = (summary.byRiskLevelCents[riskLevel] ?? 0) + cents;
}

function fromRow(row: BookOfferRow): BookOffer {
  return {
    id: row.id,
    automateFund: row.automate_fund === 1,
    totalCents: row.total_amount_cents,
    riskLevel: row.risk_level,
    borrowerId: row.borrower_id,
    state: row.state,
    createdMs: msFromIso(row.created_at),
    dryRun: row.dry_run === 1,
    hasLoan: row.has_loan === 1,
  };
}

// The three predicates below are the WHERE clauses of sqlRecount, row by row.

function countsInExposure(offer: BookOffer, dryRun: boolean, cutoffMs: number): boolean {
  if (offer.dryRun !== dryRun || offer.hasLoan) return false;
  return offer.state === 'placed' ? offer.createdMs >= cutoffMs : PENDING_STATES.has(offer.state);
}

/** The fields of an offer its reservation depends on. */
export type ReservingOffer = Pick<BookOffer, 'id' | 'automateFund' | 'state' | 'createdMs' | 'dryRun' | 'hasLoan'>;

/** Whether the offer holds money back in the scope of `query` (offer-view.ts asks it per offer). */
export function reserves(offer: ReservingOffer, query: ReservationQuery, cutoffMs: number): boolean {
  if (offer.dryRun !== (query.dryRun ?? false) || offer.id === query.exceptOfferId) return false;
  if (!offer.automateFund && query.includeManual !== true) return false;
  const { state } = offer;
  const pending = state === 'intent' || state === 'unknown' || ((state === 'placed' || state === 'accepted') && offer.createdMs >= cutoffMs);
  return pending && (!offer.hasLoan || (!offer.automateFund && state === 'accepted'));
}

function madeOn(offer: BookOffer, dryRun: boolean, startMs: number, endMs: number): boolean {
  return offer.dryRun === dryRun && offer.state !== 'refused' && offer.createdMs >= startMs && offer.createdMs < endMs;
}

/** Older than the horizon, an offer only counts while pending without a loan (see the predicates). */
function keptBeforeHorizon(offer: BookOffer): boolean {
  return PENDING_STATES.has(offer.state) && !offer.hasLoan;
}

/** An answer the book gave, and the cutoffs (offer expiry) over which it stays the answer. */
interface KeptAnswer {
  revision: number;
  fromCutoffMs: number;
  untilCutoffMs: number;
  value: unknown;
}

/** An answer, and the latest cutoff it holds for: the earliest creation of an offer counted only while the cutoff has not passed it. */
interface Counted<T> {
  value: T;
  untilCutoffMs: number;
}

export class OpenOfferBook implements GuardFigures {
  /** The queries the book stands for. */
  readonly recount: GuardFigures;
  private readonly offers = new Map<number, BookOffer>();
  private loanGroups: GroupRow[] = [];
  private loaded = false;
  private horizonMs = Number.POSITIVE_INFINITY;
  /** The earliest time asked about since the last load: the next load keeps that much. */
  private earliestAskedMs = Number.POSITIVE_INFINITY;
  private dataVersion = -1;
  /** Made at the first answer outside a transaction: triggers made inside one would roll back with it. */
  private notes: { take: () => number[]; dataVersion: () => number } | undefined;
  private readonly offerById;
  private readonly offersSince;
  private readonly openLoans;
  /** Bumped at every change of the book's offers or loans: the answers kept below are for one revision. */
  private revision = 0;
  /**
   * Answers given since the book last changed, by question. The guard asks the same three before
   * buying data and again on the offer, with nothing changed between; those answers are kept. An
   * answer depends on time only through the cutoff (offers placed before it no longer count), so
   * it is reused only while the cutoff has passed no offer it counted.
   */
  private readonly answers = new Map<string, KeptAnswer>();

  constructor(private readonly db: Database) {
    this.recount = sqlRecount(db);
    this.offerById = db.prepare<[number], BookOfferRow>(`SELECT ${OFFER_COLUMNS} FROM offers o WHERE o.id = ?`);
    this.offersSince = db.prepare<[string], BookOfferRow>(
      `SELECT ${OFFER_COLUMNS} FROM offers o WHERE o.created_at >= ? OR o.state IN ('intent', 'unknown', 'accepted', 'funded')`,
    );
    this.openLoans = db.prepare<[], GroupRow>(`SELECT borrower_id, risk_level, SUM(cents) AS cents FROM (${OPEN_LOANS}) GROUP BY borrower_id, risk_level`);
  }

  exposure(query: ExposureQuery): ExposureSummary {
    const cutoffMs = query.nowMs - query.expiryMs;
    if (!this.upToDate(cutoffMs)) return this.recount.exposure(query);
    const dryRun = query.dryRun ?? false;
    const summary = this.kept(`exposure ${dryRun}`, cutoffMs, (): Counted<ExposureSummary> => {
      const tally = summarize(this.loanGroups);
      let untilCutoffMs = Number.POSITIVE_INFINITY;
      for (const offer of this.offers.values()) {
        if (!countsInExposure(offer, dryRun, cutoffMs)) continue;
        addExposure(tally, offer.borrowerId, offer.riskLevel, offer.totalCents);
        if (offer.state === 'placed') untilCutoffMs = Math.min(untilCutoffMs, offer.createdMs);
      }
      return { value: tally, untilCutoffMs };
    });
    // The map is read-only to callers; the record is theirs to keep.
    return { totalCents: summary.totalCents, byBorrowerCents: summary.byBorrowerCents, byRiskLevelCents: { ...summary.byRiskLevelCents } };
  }

  reserved(query: ReservationQuery): Cents {
    const cutoffMs = query.nowMs - query.expiryMs;
    if (!this.upToDate(cutoffMs)) return this.recount.reserved(query);
    const key = `reserved ${query.dryRun ?? false} ${query.includeManual ?? false} ${query.exceptOfferId ?? ''}`;
    return this.kept(key, cutoffMs, (): Counted<Cents> => {
      let total = 0;
      let untilCutoffMs = Number.POSITIVE_INFINITY;
      for (const offer of this.offers.values()) {
        if (!reserves(offer, query, cutoffMs)) continue;
        total += offer.totalCents;
        if (offer.state === 'placed' || offer.state === 'accepted') untilCutoffMs = Math.min(untilCutoffMs, offer.createdMs);
      }
      return { value: total, untilCutoffMs };
    });
  }

  daily(query: DailyQuery): DailyTotals {
    const { startMs, endMs } = utcDayBounds(query.nowMs);
    if (!this.upToDate(startMs)) return this.recount.daily(query);
    const dryRun = query.dryRun ?? false;
    // The same day's answer for any time in it: no cutoff.
    const totals = this.kept(`daily ${dryRun} ${startMs}`, 0, (): Counted<DailyTotals> => {
      let offers = 0;
      let amountCents = 0;
      for (const offer of this.offers.values()) {
        if (!madeOn(offer, dryRun, startMs, endMs)) continue;
        offers += 1;
        amountCents += offer.totalCents;
      }
      return { value: { offers, amountCents }, untilCutoffMs: Number.POSITIVE_INFINITY };
    });
    return { ...totals };
  }

  /**
   * The answer kept for `key` when the book has not changed since and `cutoffMs` lies between
   * the cutoff it was counted at and the first creation time it depended on; else counts afresh.
   * A cutoff only moving forward drops offers and never adds one, so within that window the
   * counted set, and the answer, are the same.
   */
  private kept<T>(key: string, cutoffMs: number, count: () => Counted<T>): T {
    const answer = this.answers.get(key);
    if (answer !== undefined && answer.revision === this.revision && cutoffMs >= answer.fromCutoffMs && cutoffMs <= answer.untilCutoffMs) {
      return answer.value as T;
    }
    const counted = count();
    this.answers.set(key, { revision: this.revision, fromCutoffMs: cutoffMs, untilCutoffMs: counted.untilCutoffMs, value: counted.value });
    return counted.value;
  }

  /** The book changed: no answer kept holds. */
  private changed(): void {
    this.revision += 1;
    this.answers.clear();
  }

  /**
   * Brings the book up to date for a question about times from `sinceMs` on; false when it cannot
   * answer: inside a transaction (which may still roll back what the book would read), or on a
   * query_only connection.
   */
  private upToDate(sinceMs: number): boolean {
    if (this.db.inTransaction) return false;
    let changed: number[];
    try {
      this.notes ??= this.installTriggers();
      changed = this.notes.take();
    } catch (error) {
      // A connection set query_only (a read-only check) can neither make nor clear the notes: ask SQL.
      if ((error as { code?: unknown }).code === 'SQLITE_READONLY') return false;
      throw error;
    }
    const version = this.notes.dataVersion();
    if (!this.loaded || version !== this.dataVersion || sinceMs < this.horizonMs || changed.includes(RELOAD)) {
      this.load(Math.min(sinceMs, this.earliestAskedMs), version);
    } else {
      for (const id of changed) this.reread(id);
    }
    this.earliestAskedMs = Math.min(this.earliestAskedMs, sinceMs);
    return true;
  }

  private installTriggers(): { take: () => number[]; dataVersion: () => number } {
    this.db.exec(TRIGGERS);
    const take = this.db.prepare<[], number>('DELETE FROM temp.offer_book_changes RETURNING offer_id').pluck();
    const dataVersion = this.db.prepare<[], number>('PRAGMA data_version').pluck();
    // Whatever was written before the triggers existed is read by the first load.
    this.loaded = false;
    return { take: () => take.all(), dataVersion: () => dataVersion.get() ?? 0 };
  }

  private load(horizonMs: number, version: number): void {
    this.changed();
    this.offers.clear();
    for (const row of this.offersSince.all(isoFromMs(horizonMs))) {
      const offer = fromRow(row);
      if (offer.createdMs >= horizonMs || keptBeforeHorizon(offer)) this.offers.set(offer.id, offer);
    }
    this.loanGroups = this.openLoans.all();
    this.horizonMs = horizonMs;
    this.earliestAskedMs = Number.POSITIVE_INFINITY;
    this.dataVersion = version;
    this.loaded = true;
  }

  private reread(id: number): void {
    this.changed();
    const row = this.offerById.get(id);
    const offer = row === undefined ? undefined : fromRow(row);
    if (offer !== undefined && (offer.createdMs >= this.horizonMs || keptBeforeHorizon(offer))) this.offers.set(id, offer);
    else this.offers.delete(id);
  }
}

const books = new WeakMap<Database, OpenOfferBook>();

/** The one book of a connection (the offers and exposure repositories share it). */
export function openOfferBookOf(db: Database): OpenOfferBook {
  let book = books.get(db);
  if (book === undefined) {
    book = new OpenOfferBook(db);
    books.set(db, book);
  }
  return book;
}
