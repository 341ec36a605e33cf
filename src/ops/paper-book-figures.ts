/**
 * The paper book as a lender can act on it (docs/daemon.md, "Paper book"): the one computation
 * that `lendbot status`, the dashboard, the operator API and the agent connector show.
 *
 * The strategy's curve alone overstated acceptance (a dry run modelled 11.8 % of offers taken
 * where the same market's live run funded 4.5 %), so acceptance comes from what the market did,
 * the first of these that has evidence:
 *
 *   live_fates     the live offers of this database (last 30 days) whose fate is known: accepted
 *                  or funded against rejected, lost or expired (the states every surface shows).
 *                  At least LIVE_FATES_MIN of them: the observed share replaces every P(accept).
 *   paper_fates    the paper offers' requests whose fate is known: `taken` (left the list while
 *                  our offer was out: another lender's offer won, or the borrower withdrew) or
 *                  `untaken` (still listed when our offer's life ended). Reading a borrower who
 *                  took no offer in that time as one who would have declined ours too, the share
 *                  taken is the most our offers could have won; where the curve assumes more, the
 *                  curve is scaled down to it. (Wrong where nobody else offered and the borrower
 *                  would have taken any rate: the market shows neither.)
 *   learned_take_up  no fate of these offers, but the strategy's prices learn (pricing.learning)
 *                  and the learner had learned from fates when it priced them: its take-up.
 *   assumed_curve  no fate yet: the strategy's own market response, said so.
 *
 * Beside the lifetime profit of the loans (earned over their terms), a return on the capital it
 * assumes, the account balance: the profit of the loans made since the first paper offer, at that
 * pace for a year, over the balance. The uncertainty is said in words: the acceptance's 95 %
 * Wilson interval and its count, and the profit's interval over both that interval and the
 * acceptances' and defaults' draws.
 */
import { DAY_MS } from '../clock/time-constants.js';
import { wilson } from '../math/index.js';
import type { Cents } from '../domain/index.js';
import { balanceFromStore, type RiskLimits } from '../risk/index.js';
import type { PaperBookSummary, Store } from '../store/index.js';
import { offerStateCounts, type OfferStateCounts } from './offer-states-status.js';

/** Live offers of known fate needed before their share replaces the curve. */
export const LIVE_FATES_MIN = 20;
/** A window shorter than this is not annualised: a few hours' pace says nothing of a year. */
const MIN_ANNUALISED_DAYS = 7;
const YEAR_DAYS = 365;
const Z95 = 1.959964;

type PaperAcceptanceSource = 'live_fates' | 'paper_fates' | 'learned_take_up' | 'assumed_curve';

interface PaperAcceptance {
  source: PaperAcceptanceSource;
  /** One line naming the source, e.g. "acceptance: observed fates of 12 paper offers". */
  label: string;
  /** The share of the modelled paper offers taken as accepted in the figures. */
  rate: number;
  /** 95 % interval of that share (Wilson; for paper fates, of the most our offers could have won); null for the curve. */
  interval95: { low: number; high: number } | null;
  /** The fates it rests on (0 for the curve). */
  n: number;
  /** The curve's own mean P(accept) over the modelled offers, for comparison. */
  curveRate: number;
  /** Which curve priced the offers: the strategy's assumption, or a take-up learned from fates. */
  curve: 'assumed' | 'learned';
}

export interface PaperBookFigures {
  /** The store's sums: the curve's figures, labelled modelled, and what became of the requests. */
  summary: PaperBookSummary;
  acceptance: PaperAcceptance;
  /** Under `acceptance`: expected loans, money lent, and lifetime profit (over the loans' terms) with its 95 % interval. */
  expectedAccepted: number;
  expectedLentCents: Cents;
  lifetimeProfitCents: Cents;
  lifetimeProfit95: { lowCents: Cents; highCents: Cents };
  /** The return on the capital the book assumes. */
  capital: {
    /** The account balance, the capital assumed. */
    balanceCents: Cents;
    /** Days from the first paper offer to now. */
    days: number;
    /** Lifetime profit per year at the window's pace over the balance; null when the window or the balance is too small. */
    annualReturn: number | null;
    annualReturn95: { low: number; high: number } | null;
  };
  /** The figures' uncertainty and assumptions, in words. */
  words: string;
}

export interface PaperBookInput {
  summary: PaperBookSummary;
  /** The live offers of the last 30 days by state (status's `offers` of the live scope). */
  liveOffers: OfferStateCounts;
  balanceCents: Cents;
  nowMs: number;
}

interface Book {
  mean: number;
  sd: number;
}

/** "1 paper offer", "8 live offers", "8 offers". */
function offersText(n: number, kind?: string): string {
  return `${n} ${kind === undefined ? '' : `${kind} `}offer${n === 1 ? '' : 's'}`;
}

/** A share as the paper book states it: "12.5 %". */
export function percent(share: number): string {
  return `${(share * 100).toFixed(1)} %`;
}

/** Where acceptance comes from, and the book's mean and sd at a given share of it. */
function acceptanceOf(input: PaperBookInput): { acceptance: PaperAcceptance; bookAt: (share: number) => Book } {
  const { summary, liveOffers } = input;
  const m = summary.moments;
  const modelled = summary.offers - summary.notModelled;
  const curveRate = modelled > 0 ? summary.expectedAccepted / modelled : 0;
  // Every P(accept) replaced by one share a.
  const flat = (a: number): Book => ({ mean: a * m.profit, sd: Math.sqrt(Math.max(0, a * m.square - a * a * m.profitSquared)) });
  // The curve's P(accept) scaled by f = share / curveRate.
  const scaled = (share: number): Book => {
    const f = curveRate > 0 ? share / curveRate : 0;
    return { mean: f * m.curveProfit, sd: Math.sqrt(Math.max(0, f * m.curveSquare - f * f * m.curveProfitSquared)) };
  };
  const won = liveOffers.accepted + liveOffers.funded;
  const live = won + liveOffers.rejected + liveOffers.lost + liveOffers.expired;
  if (live >= LIVE_FATES_MIN) {
    const w = wilson(won, live);
    return {
      acceptance: {
        source: 'live_fates',
        label: `acceptance: observed fates of ${offersText(live, 'live')}`,
        rate: w.rate ?? 0,
        interval95: { low: w.low ?? 0, high: w.high ?? 1 },
        n: live,
        curveRate,
        curve: summary.learned.offers > 0 ? 'learned' : 'assumed',
      },
      bookAt: flat,
    };
  }
  const { taken, untaken } = summary.fates;
  const known = taken + untaken;
  // The curve the offers were priced with: the learned take-up where a learner with fates priced them.
  const { learned } = summary;
  const curve = learned.offers > 0 ? 'learned' : 'assumed';
  const curveName =
    learned.offers > 0 ? `learned take-up (${learned.offers} of ${modelled} offers, ${learned.evidence} fates learned)` : 'assumed curve';
  if (known > 0) {
    const w = wilson(taken, known);
    const ceiling = w.rate ?? 0;
    const binds = curveRate > ceiling;
    return {
      acceptance: {
        source: 'paper_fates',
        label: binds
          ? `acceptance: observed fates of ${offersText(known, 'paper')}: at most ${percent(ceiling)} (the ${curveName} said ${percent(curveRate)})`
          : `acceptance: ${curveName}, within the at most ${percent(ceiling)} the fates of ${offersText(known, 'paper')} allow`,
        rate: Math.min(curveRate, ceiling),
        // Within the bound the share is still the curve's assumption: no interval to give.
        interval95: binds ? { low: w.low ?? 0, high: Math.min(curveRate, w.high ?? 1) } : null,
        n: known,
        curveRate,
        curve,
      },
      bookAt: scaled,
    };
  }
  return {
    acceptance: {
      source: learned.offers > 0 ? 'learned_take_up' : 'assumed_curve',
      label: learned.offers > 0 ? `acceptance: ${curveName}: no fates of these offers yet` : 'acceptance: assumed curve: no fates yet',
      rate: curveRate,
      interval95: null,
      n: 0,
      curveRate,
      curve,
    },
    bookAt: scaled,
  };
}

/** The paper book's figures as every surface shows them. */
export function paperBookFigures(input: PaperBookInput): PaperBookFigures {
  const { summary, balanceCents, nowMs } = input;
  const { acceptance, bookAt } = acceptanceOf(input);
  const centre = bookAt(acceptance.rate);
  // The profit's interval spans the acceptance's own interval and the draws at each end.
  const low = acceptance.interval95 === null ? centre : bookAt(acceptance.interval95.low);
  const high = acceptance.interval95 === null ? centre : bookAt(acceptance.interval95.high);
  const lowCents = Math.round(Math.min(low.mean - Z95 * low.sd, centre.mean - Z95 * centre.sd));
  const highCents = Math.round(Math.max(high.mean + Z95 * high.sd, centre.mean + Z95 * centre.sd));
  const modelled = summary.offers - summary.notModelled;
  const share = acceptance.curveRate > 0 ? acceptance.rate / acceptance.curveRate : 0;
  const flatLent = acceptance.source === 'live_fates';
  const firstMs = summary.firstAt === null ? Number.NaN : Date.parse(summary.firstAt);
  const days = Number.isFinite(firstMs) ? Math.max(0, (nowMs - firstMs) / DAY_MS) : 0;
  const annualise = days >= MIN_ANNUALISED_DAYS && balanceCents > 0;
  const perYear = (cents: number): number => (cents * (YEAR_DAYS / days)) / balanceCents;
  const figures: PaperBookFigures = {
    summary,
    acceptance,
    expectedAccepted: flatLent ? acceptance.rate * modelled : summary.expectedAccepted * share,
    expectedLentCents: Math.round(flatLent ? acceptance.rate * summary.moments.amountCents : summary.expectedLentCents * share),
    lifetimeProfitCents: Math.round(centre.mean),
    lifetimeProfit95: { lowCents, highCents },
    capital: {
      balanceCents,
      days: Math.round(days * 10) / 10,
      annualReturn: annualise ? perYear(centre.mean) : null,
      annualReturn95: annualise ? { low: perYear(lowCents), high: perYear(highCents) } : null,
    },
    words: '',
  };
  figures.words = wordsOf(figures);
  return figures;
}

/** The uncertainty and the assumptions in plain words. */
function wordsOf(figures: PaperBookFigures): string {
  const { acceptance, capital } = figures;
  const atMost = acceptance.source === 'paper_fates' ? 'at most ' : '';
  const accept =
    acceptance.interval95 === null
      ? `acceptance ${percent(acceptance.rate)} is the strategy's ${acceptance.curve === 'learned' ? 'learned take-up, not measured on these offers' : 'assumption, not measured'}: nothing was sent`
      : `acceptance ${atMost}${percent(acceptance.rate)} (95 % ${percent(acceptance.interval95.low)} to ${percent(acceptance.interval95.high)}, ${offersText(acceptance.n)})`;
  const capitalWords =
    capital.annualReturn === null
      ? capital.balanceCents > 0
        ? `no return on capital before ${MIN_ANNUALISED_DAYS} days of paper offers`
        : 'no return on capital without a balance'
      : `return on the balance at this pace, a year: ${percent(capital.annualReturn)}`;
  return `${accept}; lifetime profit is earned over the loans' terms; ${capitalWords}`;
}

/**
 * The book read from the store as of `nowMs`: what status, the API and the agent connector show.
 * `emptyAsNull`: an empty book is null, without reading the live offers (a live daemon's overview
 * asks on every refresh).
 */
export function readPaperBook(store: Store, nowMs: number, limits: RiskLimits): PaperBookFigures;
export function readPaperBook(store: Store, nowMs: number, limits: RiskLimits, emptyAsNull: true): PaperBookFigures | null;
export function readPaperBook(store: Store, nowMs: number, limits: RiskLimits, emptyAsNull = false): PaperBookFigures | null {
  const summary = store.paper.summary({ expiryMs: limits.offerExpiryMs });
  if (emptyAsNull && summary.offers === 0) return null;
  return paperBookFigures({
    summary,
    liveOffers: offerStateCounts(store, nowMs, limits, false),
    balanceCents: balanceFromStore(store),
    nowMs,
  });
}
