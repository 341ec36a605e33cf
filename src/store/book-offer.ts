/**
 * FAST PATH of src/store/guard-figures-sql.ts:sqlRecount; equivalence: test/store/open-offer-book.test.ts; change both or neither.
 *
 * An offer as the open-offer book (open-offer-book.ts) holds it, and the rules that say whether
 * it counts in each of the guard's figures: the WHERE clauses of the SQL recount
 * (guard-figures-sql.ts `sqlRecount`), row by row. Change a clause there and its predicate here
 * together; test/store/open-offer-book.test.ts compares the two.
 */
import type { Cents } from '../domain/index.js';
import type { OfferRow, OfferState } from './offer-row.js';
import { msFromIso } from './sql-values.js';

/** Which offers to count: the live ones (default) or, for a dry run, the simulated ones. */
export interface OfferScope {
  dryRun?: boolean | undefined;
}

export interface ReservationQuery extends OfferScope {
  nowMs: number;
  expiryMs: number;
  /** Offers without automate_fund reserve too. */
  includeManual?: boolean | undefined;
  exceptOfferId?: number | undefined;
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
  /** The transfer history already shows the money paid out for its request (PAID_OUT_SQL). */
  paidOut: boolean;
}

/** The offers table's columns the book reads, and the two OFFER_COLUMNS computes. */
export type BookOfferRow = Pick<
  OfferRow,
  'id' | 'automate_fund' | 'total_amount_cents' | 'risk_level' | 'borrower_id' | 'state' | 'created_at' | 'dry_run'
> & { has_loan: 0 | 1; paid_out: 0 | 1 };

/**
 * Whether the transfer history (what the balance is computed from: balanceFromTransfers) already
 * shows money going out for the offer's request, pending or processed. Such an offer's money has
 * left the available balance, so it no longer reserves: counted in both, it was held back twice
 * until the loan sync marked the offer funded (the soak of issue 37 saw reserved at 164.9 % of the
 * balance while the marketplace never had more than 93.3 % pending). For `FROM offers o`.
 */
export const PAID_OUT_SQL = `EXISTS (SELECT 1 FROM transfers t WHERE t.loan_request_id = o.loan_request_id AND t.amount_cents < 0 AND lower(t.status) <> 'failed')`;

/** The columns of a BookOfferRow, for `SELECT ... FROM offers o`. */
export const OFFER_COLUMNS = `o.id, o.automate_fund, o.total_amount_cents, o.risk_level, o.borrower_id, o.state, o.created_at, o.dry_run,
  EXISTS (SELECT 1 FROM loans l WHERE l.loan_request_id = o.loan_request_id) AS has_loan, ${PAID_OUT_SQL} AS paid_out`;

/** Pending offers count whatever their age (until settled or a loan replaces them). */
const PENDING_STATES: ReadonlySet<OfferState> = new Set(['intent', 'unknown', 'accepted', 'funded']);

export function fromRow(row: BookOfferRow): BookOffer {
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
    paidOut: row.paid_out === 1,
  };
}

/** The open_offers clause of the exposure query. */
export function countsInExposure(offer: BookOffer, dryRun: boolean, cutoffMs: number): boolean {
  if (offer.dryRun !== dryRun || offer.hasLoan) return false;
  return offer.state === 'placed' ? offer.createdMs >= cutoffMs : PENDING_STATES.has(offer.state);
}

/** The fields of an offer its reservation depends on. */
export type ReservingOffer = Pick<BookOffer, 'id' | 'automateFund' | 'state' | 'createdMs' | 'dryRun' | 'hasLoan' | 'paidOut'>;

/** Whether the offer holds money back in the scope of `query` (offer-view.ts asks it per offer). */
export function reserves(offer: ReservingOffer, query: ReservationQuery, cutoffMs: number): boolean {
  if (offer.dryRun !== (query.dryRun ?? false) || offer.id === query.exceptOfferId) return false;
  // Its money already left the balance (PAID_OUT_SQL): reserving it too would count it twice.
  if (offer.paidOut) return false;
  if (!offer.automateFund && query.includeManual !== true) return false;
  const { state } = offer;
  const pending =
    state === 'intent' || state === 'unknown' || ((state === 'placed' || state === 'accepted') && offer.createdMs >= cutoffMs);
  return pending && (!offer.hasLoan || (!offer.automateFund && state === 'accepted'));
}

/** The daily totals' clause. */
export function madeOn(offer: BookOffer, dryRun: boolean, startMs: number, endMs: number): boolean {
  return offer.dryRun === dryRun && offer.state !== 'refused' && offer.createdMs >= startMs && offer.createdMs < endMs;
}

/** Older than the horizon, an offer only counts while pending without a loan (see the predicates). */
export function keptBeforeHorizon(offer: BookOffer): boolean {
  return PENDING_STATES.has(offer.state) && !offer.hasLoan;
}

/** Offers the book loads for a horizon: created since it, or still pending (`?` is the horizon's ISO text). */
export const OFFERS_SINCE_SQL = `SELECT ${OFFER_COLUMNS} FROM offers o WHERE o.created_at >= ? OR o.state IN ('intent', 'unknown', 'accepted', 'funded')`;
