/**
 * FAST PATH of src/store/guard-figures-sql.ts:sqlRecount; equivalence: test/store/open-offer-book.test.ts; change both or neither.
 *
 * The guard's figures over offers (open exposure, reservations, today's totals), answered from
 * memory instead of summed by queries before every offer: those queries grow with the offers
 * (1.5 ms from 1,000 open offers, 10 ms from 10,000; the book 0.17 and 1.0 ms: bench/guard-figures.ts),
 * and the guard runs on the way to every POST.
 *
 * The book holds the offers that can count (book-offer.ts): every offer created since `horizonMs`,
 * and older ones still pending without a synced loan (intent, unknown, accepted, funded). The
 * change notes (offer-book-changes.ts) name the offers changed since the last answer; before
 * answering, the book re-reads just those rows. It reloads everything when loans change (or
 * anything a loan's attribution reads), when another connection committed (PRAGMA data_version),
 * and when asked about a time before its horizon. The queries it replaces stay, as `recount`:
 * tests check the book against them after every kind of change, and a question asked inside an
 * open transaction is answered by them.
 */
import type { Database } from 'better-sqlite3';
import type { Cents } from '../domain/index.js';
import {
  countsInExposure,
  fromRow,
  keptBeforeHorizon,
  madeOn,
  OFFERS_SINCE_SQL,
  OFFER_COLUMNS,
  reserves,
  type BookOffer,
  type BookOfferRow,
  type ReservationQuery,
} from './book-offer.js';
import {
  addExposure,
  OPEN_LOANS,
  sqlRecount,
  summarize,
  type DailyQuery,
  type DailyTotals,
  type ExposureQuery,
  type ExposureSummary,
  type GroupRow,
  type GuardFigures,
} from './guard-figures-sql.js';
import { installChangeNotes, RELOAD, type ChangeNotes } from './offer-book-changes.js';
import { isoFromMs, utcDayBounds } from './sql-values.js';

export type { ExposureQuery, ExposureSummary, GuardFigures } from './guard-figures-sql.js';

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
  private notes: ChangeNotes | undefined;
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
    this.offersSince = db.prepare<[string], BookOfferRow>(OFFERS_SINCE_SQL);
    this.openLoans = db.prepare<[], GroupRow>(
      `SELECT borrower_id, risk_level, SUM(cents) AS cents FROM (${OPEN_LOANS}) GROUP BY borrower_id, risk_level`,
    );
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

  private installTriggers(): ChangeNotes {
    const notes = installChangeNotes(this.db);
    // Whatever was written before the triggers existed is read by the first load.
    this.loaded = false;
    return notes;
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
