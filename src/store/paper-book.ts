/**
 * A dry run's paper book (table paper_offers, migration 10; docs/daemon.md, "Paper book"): each
 * would-be offer with what the strategy's models said of it when it was decided, what became of
 * its request on the real market (offer_listings, noted by every poll), and the book's expected
 * profit with a 95 % interval. Everything here but the request's fate is MODELLED: nothing was
 * sent, so nothing was accepted.
 *
 * The interval: each offer's profit is X = A × L, A ~ Bernoulli(P(accept)), L the profit once
 * accepted (repaid in full with the score's probability, else the default's). Offers are taken as
 * independent, so the variances add; the interval is the normal one, mean ± 1.96 sd. The sums
 * run in SQLite, so the book costs the same to read whatever its size. Beside the curve's figures
 * the summary carries the moments of the profit once accepted and what the market did with the
 * requests, from which ops/paper-book-figures.ts prices acceptance by what the market did.
 */
import type { Database } from 'better-sqlite3';
import type { Cents } from '../domain/index.js';
import { isoFromMs } from './sql-values.js';

/** What the strategy's models said of one dry-run offer (engine/decision.ts ModelledOutcome). */
interface PaperOfferInput {
  offerId: number;
  loanRequestId: number;
  strategy: string;
  /** Undefined: a strategy without a score, which models nothing. */
  modelled?: { acceptProbability: number; repaidProfitCents: number; defaultProfitCents: number } | undefined;
  repayProbability?: number | undefined;
  atMs: number;
}

/** What became of a paper offer's request: listed at the last scan, gone from the list, or not scanned since the offer. */
type PaperRequestFate = 'listed' | 'gone' | 'not_scanned';

export interface PaperOfferRecord {
  offerId: number;
  loanRequestId: number;
  strategy: string;
  rate: number;
  amountCents: Cents;
  /** Modelled; null when the strategy models nothing. */
  acceptProbability: number | null;
  repayProbability: number | null;
  /** Modelled P(accept) × expected profit once accepted, in whole cents; null when not modelled. */
  expectedProfitCents: Cents | null;
  request: PaperRequestFate;
  createdAt: string;
}

export interface PaperBookSummary {
  /** Always 'modelled': the figures come from the strategy's models, never from the market's answers. */
  basis: 'modelled';
  offers: number;
  /** Offers of strategies without a score: counted, left out of the sums. */
  notModelled: number;
  /** Sum of P(accept): the offers the models expect the borrowers to have taken. */
  expectedAccepted: number;
  /** Sum of P(accept) × the amount: the money the book would have lent. */
  expectedLentCents: Cents;
  expectedProfitCents: Cents;
  /** Standard deviation of the book's profit, from the Bernoulli acceptances and the default probability. */
  sdCents: Cents;
  /** 95 % interval of the book's profit (normal approximation). */
  interval95: { lowCents: Cents; highCents: Cents };
  /** What became of the requests on the real market (observed, not modelled). */
  requests: Record<PaperRequestFate, number>;
  /**
   * The requests' fates read against each paper offer's life (risk.offer_expiry_hours), as a live
   * offer's are (offer-fate.ts): `taken`, the request left the list while our offer was out
   * (another lender's offer was taken, or the borrower withdrew); `untaken`, a scan still listed it
   * after our offer's life ended (the borrower took no offer in that time). The rest are open.
   */
  fates: { taken: number; untaken: number };
  /** Sums over the modelled offers that any acceptance share needs (ops/paper-book-figures.ts). */
  moments: PaperBookMoments;
  /** When the first paper offer was made (ISO), or null for an empty book. */
  firstAt: string | null;
  /**
   * Modelled offers priced by a learned market response that had learned from fates (evidence
   * above 0, market_decisions), and the most fates any of them rested on: their P(accept) is the
   * learned take-up, not the prior curve.
   */
  learned: { offers: number; evidence: number };
}

/**
 * With L an offer's profit once accepted (repaid in full or defaulted, by the score) and P the
 * curve's P(accept): the sums over modelled offers of the amount, E[L], E[L²], E[L]², and of
 * P × E[L], P × E[L²], (P × E[L])². An acceptance share a in place of every P gives a book of mean
 * a × ΣE[L] and variance a × ΣE[L²] − a² × ΣE[L]²; the curve scaled by f, f × ΣP·E[L] and
 * f × ΣP·E[L²] − f² × Σ(P·E[L])².
 */
interface PaperBookMoments {
  amountCents: number;
  profit: number;
  square: number;
  profitSquared: number;
  curveProfit: number;
  curveSquare: number;
  curveProfitSquared: number;
}

/** How to read the requests' fates: an offer's life, risk.offer_expiry_hours in ms. */
interface PaperBookQuery {
  expiryMs: number;
}

export interface PaperBook {
  /** Records one dry-run offer; a second record of the same offer is ignored. */
  record(input: PaperOfferInput): void;
  get(offerId: number): PaperOfferRecord | undefined;
  summary(query: PaperBookQuery): PaperBookSummary;
  /** The newest `limit` paper offers, newest first. */
  recent(limit: number): PaperOfferRecord[];
  /** The book by the UTC month each paper offer was made, oldest first (the drift report). */
  byMonth(): PaperMonth[];
}

/** One month of the paper book: modelled sums over the offers a score modelled, and the requests seen gone. */
export interface PaperMonth {
  month: string;
  offers: number;
  /** Offers with modelled figures (a strategy with a score). */
  modelled: number;
  /** Sum of the modelled P(accept) of `modelled`. */
  acceptSum: number;
  /** Sum of their modelled repayment probability. */
  repaySum: number;
  /** Modelled P(accept) × expected profit once accepted, summed, in (unrounded) cents. */
  expectedProfitCents: number;
  /** Requests of the month's paper offers that left the list (observed). */
  gone: number;
}

/** z for a two-sided 95 % interval. */
const Z95 = 1.959964;

interface Row {
  offer_id: number;
  loan_request_id: number;
  strategy: string;
  accept_probability: number | null;
  repay_probability: number | null;
  repaid_profit_cents: number | null;
  default_profit_cents: number | null;
  /** EXPECTED_SQL: null when the offer is not modelled. */
  expected: number | null;
  created_at: string;
  rate: number;
  total_amount_cents: number;
  listed_until: string | null;
  left_list_at: string | null;
}

interface SumsRow {
  offers: number;
  not_modelled: number;
  accepted: number | null;
  lent: number | null;
  mean: number | null;
  variance: number | null;
  listed: number;
  gone: number;
  taken: number | null;
  untaken: number | null;
  amount: number | null;
  profit: number | null;
  square: number | null;
  profit_squared: number | null;
  curve_square: number | null;
  curve_profit_squared: number | null;
  first_at: string | null;
  learned: number | null;
  evidence: number | null;
}

function fate(row: { listed_until: string | null; left_list_at: string | null }): PaperRequestFate {
  if (row.left_list_at !== null) return 'gone';
  return row.listed_until !== null ? 'listed' : 'not_scanned';
}

/** P(accept) × (p × repaid + (1 − p) × default): the offer's expected profit, in SQL. */
const EXPECTED_SQL =
  'p.accept_probability * (p.repay_probability * p.repaid_profit_cents + (1 - p.repay_probability) * p.default_profit_cents)';
/** E[L] = p × repaid + (1 − p) × default: the profit once accepted. */
const PROFIT_SQL = '(p.repay_probability * p.repaid_profit_cents + (1 - p.repay_probability) * p.default_profit_cents)';
/** E[L²] = p × repaid² + (1 − p) × default². */
const LOSS_SQUARE_SQL =
  '(p.repay_probability * p.repaid_profit_cents * p.repaid_profit_cents + (1 - p.repay_probability) * p.default_profit_cents * p.default_profit_cents)';
/** E[X²] = P(accept) × E[L²]. */
const SQUARE_SQL = `p.accept_probability * ${LOSS_SQUARE_SQL}`;
// ISO times as isoFromMs writes them (sql-values.ts), so they compare as text (as offer-view.ts).
const LIFE_END = "strftime('%Y-%m-%dT%H:%M:%fZ', o.created_at, @life)";

function fromRow(row: Row): PaperOfferRecord {
  return {
    offerId: row.offer_id,
    loanRequestId: row.loan_request_id,
    strategy: row.strategy,
    rate: row.rate,
    amountCents: row.total_amount_cents,
    acceptProbability: row.accept_probability,
    repayProbability: row.repay_probability,
    expectedProfitCents: row.expected === null ? null : Math.round(row.expected),
    request: fate(row),
    createdAt: row.created_at,
  };
}

export function createPaperBook(db: Database): PaperBook {
  const insert = db.prepare(
    `INSERT INTO paper_offers (offer_id, loan_request_id, strategy, accept_probability, repay_probability, repaid_profit_cents, default_profit_cents, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (offer_id) DO NOTHING`,
  );
  const select = `SELECT p.*, ${EXPECTED_SQL} AS expected, o.rate, o.total_amount_cents, l.listed_until, l.left_list_at
     FROM paper_offers p JOIN offers o ON o.id = p.offer_id LEFT JOIN offer_listings l ON l.offer_id = p.offer_id`;
  const byId = db.prepare<[number], Row>(`${select} WHERE p.offer_id = ?`);
  const newest = db.prepare<[number], Row>(`${select} ORDER BY p.offer_id DESC LIMIT ?`);
  const modelledWhere = 'p.accept_probability IS NOT NULL AND p.repay_probability IS NOT NULL';
  const sums = db.prepare<[{ life: string }], SumsRow>(
    `SELECT count(*) AS offers,
       sum(CASE WHEN ${modelledWhere} THEN 0 ELSE 1 END) AS not_modelled,
       sum(CASE WHEN ${modelledWhere} THEN p.accept_probability END) AS accepted,
       sum(CASE WHEN ${modelledWhere} THEN p.accept_probability * o.total_amount_cents END) AS lent,
       sum(CASE WHEN ${modelledWhere} THEN ${EXPECTED_SQL} END) AS mean,
       sum(CASE WHEN ${modelledWhere} THEN ${SQUARE_SQL} - (${EXPECTED_SQL}) * (${EXPECTED_SQL}) END) AS variance,
       sum(CASE WHEN l.left_list_at IS NULL AND l.listed_until IS NOT NULL THEN 1 ELSE 0 END) AS listed,
       sum(CASE WHEN l.left_list_at IS NOT NULL THEN 1 ELSE 0 END) AS gone,
       sum(CASE WHEN l.listed_until > ${LIFE_END} THEN 0 WHEN l.left_list_at IS NOT NULL THEN 1 ELSE 0 END) AS taken,
       sum(CASE WHEN l.listed_until > ${LIFE_END} THEN 1 ELSE 0 END) AS untaken,
       sum(CASE WHEN ${modelledWhere} THEN o.total_amount_cents END) AS amount,
       sum(CASE WHEN ${modelledWhere} THEN ${PROFIT_SQL} END) AS profit,
       sum(CASE WHEN ${modelledWhere} THEN ${LOSS_SQUARE_SQL} END) AS square,
       sum(CASE WHEN ${modelledWhere} THEN ${PROFIT_SQL} * ${PROFIT_SQL} END) AS profit_squared,
       sum(CASE WHEN ${modelledWhere} THEN ${SQUARE_SQL} END) AS curve_square,
       sum(CASE WHEN ${modelledWhere} THEN (${EXPECTED_SQL}) * (${EXPECTED_SQL}) END) AS curve_profit_squared,
       min(p.created_at) AS first_at,
       sum(CASE WHEN ${modelledWhere} AND md.evidence > 0 THEN 1 ELSE 0 END) AS learned,
       max(CASE WHEN ${modelledWhere} THEN md.evidence END) AS evidence
     FROM paper_offers p JOIN offers o ON o.id = p.offer_id LEFT JOIN offer_listings l ON l.offer_id = p.offer_id
       LEFT JOIN market_decisions md ON md.loan_request_id = p.loan_request_id`,
  );

  const months = db.prepare<[], PaperMonth>(
    `SELECT substr(p.created_at, 1, 7) AS month, count(*) AS offers,
       sum(CASE WHEN ${modelledWhere} THEN 1 ELSE 0 END) AS modelled,
       coalesce(sum(CASE WHEN ${modelledWhere} THEN p.accept_probability END), 0) AS acceptSum,
       coalesce(sum(CASE WHEN ${modelledWhere} THEN p.repay_probability END), 0) AS repaySum,
       coalesce(sum(CASE WHEN ${modelledWhere} THEN ${EXPECTED_SQL} END), 0) AS expectedProfitCents,
       sum(CASE WHEN l.left_list_at IS NOT NULL THEN 1 ELSE 0 END) AS gone
     FROM paper_offers p JOIN offers o ON o.id = p.offer_id LEFT JOIN offer_listings l ON l.offer_id = p.offer_id
     GROUP BY 1 ORDER BY 1`,
  );

  return {
    byMonth: () => months.all(),
    record(input) {
      const repay = input.modelled === undefined ? null : (input.repayProbability ?? null);
      const m = repay === null ? undefined : input.modelled;
      insert.run(
        input.offerId,
        input.loanRequestId,
        input.strategy,
        m?.acceptProbability ?? null,
        repay,
        m?.repaidProfitCents ?? null,
        m?.defaultProfitCents ?? null,
        isoFromMs(input.atMs),
      );
    },
    get(offerId) {
      const row = byId.get(offerId);
      return row === undefined ? undefined : fromRow(row);
    },
    recent(limit) {
      return newest.all(Math.max(0, Math.floor(limit))).map(fromRow);
    },
    summary(query) {
      const row = sums.get({ life: `+${(query.expiryMs / 1000).toFixed(3)} seconds` }) as SumsRow;
      const mean = row.mean ?? 0;
      // Rounding can leave a tiny negative variance on a book of near-certain offers.
      const sd = Math.sqrt(Math.max(0, row.variance ?? 0));
      const offers = row.offers;
      return {
        basis: 'modelled',
        offers,
        notModelled: row.not_modelled ?? 0,
        expectedAccepted: row.accepted ?? 0,
        expectedLentCents: Math.round(row.lent ?? 0),
        expectedProfitCents: Math.round(mean),
        sdCents: Math.round(sd),
        interval95: { lowCents: Math.round(mean - Z95 * sd), highCents: Math.round(mean + Z95 * sd) },
        requests: { listed: row.listed ?? 0, gone: row.gone ?? 0, not_scanned: offers - (row.listed ?? 0) - (row.gone ?? 0) },
        fates: { taken: row.taken ?? 0, untaken: row.untaken ?? 0 },
        moments: {
          amountCents: row.amount ?? 0,
          profit: row.profit ?? 0,
          square: row.square ?? 0,
          profitSquared: row.profit_squared ?? 0,
          curveProfit: mean,
          curveSquare: row.curve_square ?? 0,
          curveProfitSquared: row.curve_profit_squared ?? 0,
        },
        firstAt: row.first_at,
        learned: { offers: row.learned ?? 0, evidence: row.evidence ?? 0 },
      };
    },
  };
}
