/**
 * The market model of a backtest (docs/backtesting.md): what becomes of an offer the strategy
 * made, given what the recording says happened to the request. Every assumption the recording
 * cannot answer is a setting:
 *
 * - Recorded acceptance: a line with `outcome.reservation_rate` says the highest rate its borrower
 *   would have accepted; the borrower takes the cheapest offer at or below it, a tie with a
 *   competitor going to the competitor (recorded-acceptance.ts). No curve, no draw. A borrower
 *   world (borrower-worlds.ts) makes up such a rate for lines that have none.
 * - Otherwise acceptance is rate-sensitive (src/engine/market-response.ts): the chance the borrower takes
 *   our offer falls with our rate, against the competing offer the recording names or, with none,
 *   against the request's maximum. Whether this borrower accepts is a seeded draw per request
 *   (market-draws.ts), the same for every strategy replayed with the same seed.
 * - Competition is hard by default: an offer at or above a competing rate the recording names
 *   never wins. `comparison: 'soft'` (the curve's lines only) compares by the model's width.
 * - A request nobody funded (`unfunded`) is judged only when the recording says how the borrower
 *   would have repaid (`outcome.if_funded`); otherwise it cannot be won. Nor can a request
 *   without an outcome (unless the `noOutcome` setting assumes one). Either way the recording could not
 *   judge the offer: the report counts such offers (lacksOutcome) and warns when they are many.
 * - Our own loan in a daemon's recording (`offer` accepted at the loan's funded_rate): an offer at
 *   or below that rate is taken, as the borrower took it; above it, no competitor is known and the
 *   curve (given that acceptance) or the borrower world judges (own-accepted-offer.ts).
 * - A won loan repays at the OFFERED rate (src/math/loan-cash-flows.ts): a completed loan pays our whole
 *   schedule (or prepays, by a seeded draw); a loan that did not complete repays the dollars the
 *   recording says it repaid (`repaid_fraction` of the total due at the FUNDED rate), never more
 *   than it owes us.
 */
import {
  acceptProbability,
  DEFAULT_MARKET_RESPONSE,
  type CompetitionComparison,
  type MarketResponse,
  type RecordedCompetition,
} from '../engine/index.js';
import { totalRepayment, type RepaymentPlan } from '../math/index.js';
import type { LineWithoutData, Outcome, RecordingLine } from '../recording/index.js';
import { parseCents } from '../domain/index.js';
import { marketDraw } from './market-draws.js';
import { borrowerChoice, judgingReservation, type ReservationSource } from './recorded-acceptance.js';
import { ownAcceptedRate } from './own-accepted-offer.js';

/** Completed loans paid off early: which share of them, and when (a share of the term). */
interface PrepaymentSetting {
  /** Share of completed loans that repay their outstanding principal early (0 to 1). */
  share: number;
  /** When: the month round(atTermFraction × loan_terms), if that is before the last one. */
  atTermFraction: number;
}

export interface MarketAssumptions {
  /** Competition when the recording gives neither best_competing_rate nor funded_rate. */
  unknownCompetition: 'win' | 'lose' | number;
  /** Repaid fraction of a completed/default/collection loan whose recording omits it. */
  missingRepaidFraction: { completed: number; default: number; collection: number; current: number };
  /** Requests without an outcome: 'lose' (default; nothing is known) or a repaid fraction to assume. */
  noOutcome: 'lose' | number;
  /** Time from the offer to the borrower's choice (acceptance and funding, or rejection). */
  decisionDelayMs: number;
  /**
   * false: nothing is ever accepted and offers hold until they expire, exactly as in a dry run
   * (for comparing a backtest with a dry-run session request by request).
   */
  settle: boolean;
  /** How borrowers answer an offer's rate: take-up curve and competition softness. */
  response: MarketResponse;
  /**
   * How an offer meets a competing rate on lines judged by the curve: 'hard' (default: only a
   * strictly lower rate wins) or 'soft' (response.competition.width). Recorded acceptance is always hard.
   */
  comparison: CompetitionComparison;
  /** Seed of the market's draws (acceptance, prepayment); one seed, one set of borrowers. */
  seed: number;
  prepayment: PrepaymentSetting;
  /** Months from a defaulter's first missed instalment to what it still repays (recoveries). */
  recoveryDelayMonths: number;
}

export const DEFAULT_MARKET: MarketAssumptions = {
  unknownCompetition: 'win',
  missingRepaidFraction: { completed: 1, default: 0, collection: 0, current: 0 },
  noOutcome: 'lose',
  decisionDelayMs: 24 * 3_600_000,
  settle: true,
  response: DEFAULT_MARKET_RESPONSE,
  comparison: 'hard',
  seed: 1,
  // Not fitted to a market: a cautious guess that a quarter of the loans repaid in full are
  // paid off halfway through (consumer instalment loans commonly prepay this much or more).
  prepayment: { share: 0.25, atTermFraction: 0.5 },
  recoveryDelayMonths: 3,
};

/** What the market did with one offer. */
export type MarketVerdict =
  | { won: true; plan: RepaymentPlan; probability: number }
  | { won: false; reason: 'outbid' | 'declined' | 'unfunded' | 'no_outcome'; probability: number };

const FUNDED_STATUSES = new Set(['completed', 'current', 'collection', 'default']);

/**
 * What the recording says about the competition for a request, or 'lose' when the offer is
 * assumed lost (`unknownCompetition: 'lose'` and nothing recorded).
 */
export function recordedCompetition(
  outcome: Outcome | undefined,
  unknown: MarketAssumptions['unknownCompetition'],
): RecordedCompetition | 'lose' {
  const funded = outcome !== undefined && FUNDED_STATUSES.has(outcome.status);
  const best = outcome?.best_competing_rate;
  if (best === null) return { kind: 'none' };
  if (best !== undefined) return funded ? { kind: 'taken', rate: best } : { kind: 'refused', rate: best };
  if (funded && outcome.funded_rate !== undefined) return { kind: 'taken', rate: outcome.funded_rate };
  if (unknown === 'win') return { kind: 'none' };
  if (unknown === 'lose') return 'lose';
  // A borrower who took nothing cannot have taken the assumed offer: they refused it.
  return outcome?.status === 'unfunded' ? { kind: 'refused', rate: unknown } : { kind: 'taken', rate: unknown };
}

/** How the borrower repays if funded: status, recorded fraction, and the rate that fraction is of. */
interface Fate {
  status: 'completed' | 'current' | 'collection' | 'default';
  fraction: number;
  /** The rate the recorded fraction refers to (funded_rate, else our offered rate). */
  basisRate: number;
  /** The instalment first missed, when the recording says (`missed_month`). */
  missedMonth?: number | undefined;
}

function fateOf(outcome: Outcome | undefined, rate: number, market: MarketAssumptions): Fate | 'unfunded' | 'no_outcome' {
  if (!outcome) {
    if (market.noOutcome === 'lose') return 'no_outcome';
    return { status: market.noOutcome >= 1 ? 'completed' : 'default', fraction: market.noOutcome, basisRate: rate };
  }
  if (outcome.status === 'unfunded') {
    const ifFunded = outcome.if_funded;
    if (!ifFunded) return 'unfunded';
    return {
      status: ifFunded.status,
      fraction: ifFunded.repaid_fraction,
      basisRate: outcome.funded_rate ?? rate,
      missedMonth: ifFunded.missed_month,
    };
  }
  return {
    status: outcome.status,
    fraction: outcome.repaid_fraction ?? market.missingRepaidFraction[outcome.status],
    basisRate: outcome.funded_rate ?? rate,
    missedMonth: outcome.missed_month,
  };
}

/**
 * Whether the recording leaves an offer on this line unjudged: no outcome, or nobody funded the
 * request and the recording cannot say how the borrower would have repaid (no `if_funded`). A
 * daemon's own recording is mostly such lines (it knows outcomes of its own loans only).
 */
export function lacksOutcome(line: LineWithoutData): boolean {
  const outcome = line.outcome;
  return outcome === undefined || (outcome.status === 'unfunded' && outcome.if_funded === undefined);
}

/** Above this share of offers judged without an outcome, a report warns. */
export const UNJUDGED_WARN_SHARE = 0.2;

/** The warning for a backtest whose offers were largely judged without an outcome, or null. */
export function unjudgedWarning(summary: { offers: number; unjudgedOffers: number; unjudgedShare: number }): string | null {
  if (summary.unjudgedShare <= UNJUDGED_WARN_SHARE) return null;
  const share = `${(summary.unjudgedShare * 100).toFixed(1)}%`;
  return (
    `${summary.unjudgedOffers} of ${summary.offers} offers (${share}) were on requests the recording has no outcome for: ` +
    'the backtest could not judge them (they count as never won), so its figures say little about this strategy'
  );
}

/** The month a completed loan is paid off early, or null (a seeded draw per request). */
function prepayMonth(requestId: number, terms: number, market: MarketAssumptions): number | null {
  if (marketDraw(market.seed, requestId, 'prepay') >= market.prepayment.share) return null;
  const month = Math.max(1, Math.round(market.prepayment.atTermFraction * terms));
  return month < terms ? month : null;
}

/**
 * Whether an offer at `rate` on the recorded request wins, and how the loan then repays. The
 * line's own `reservation_rate` decides when it has one (unless `world` replaces it); else `world`'s made-up one; else the curve,
 * at `defaultProbability` (the offering strategy's, as the fit behind a borrower-dependent curve
 * used the lender's own) when the take-up depends on the borrower.
 */
export function judgeOffer(
  line: LineWithoutData,
  rate: number,
  market: MarketAssumptions,
  world?: ReservationSource,
  defaultProbability = 0,
): MarketVerdict {
  const request = line.loan_request;
  const fate = fateOf(line.outcome, rate, market);
  if (fate === 'unfunded' || fate === 'no_outcome') return { won: false, reason: fate, probability: 0 };
  // Our own loan (own-accepted-offer.ts): its funded_rate is ours, so no competitor is known.
  const own = ownAcceptedRate(line);
  if (own !== undefined && rate <= own) return wonLoan(request, fate, market, 1);
  const competition = own !== undefined ? ({ kind: 'none' } as const) : recordedCompetition(line.outcome, market.unknownCompetition);
  if (competition === 'lose') return { won: false, reason: 'outbid', probability: 0 };
  const reservation = judgingReservation(line, market.seed, world);
  let probability = 1;
  if (reservation !== undefined) {
    const choice = borrowerChoice(rate, reservation, competition);
    if (choice !== 'won') return { won: false, reason: choice, probability: 0 };
  } else {
    probability = acceptProbability(rate, request.max_interest_rate, competition, market.response, market.comparison, defaultProbability);
    // Above a rate the borrower accepted: the curve's chance given that they took the lower one.
    if (own !== undefined) probability = Math.min(1, probability / acceptedAt(own, request.max_interest_rate, market, defaultProbability));
    if (!(marketDraw(market.seed, request.id, 'accept') < probability)) {
      // As recorded acceptance names it: outbid when a competitor offered at or below our rate.
      return {
        won: false,
        reason: borrowerChoice(rate, Number.POSITIVE_INFINITY, competition) === 'outbid' ? 'outbid' : 'declined',
        probability,
      };
    }
  }
  return wonLoan(request, fate, market, probability);
}

/** The curve's chance of acceptance at a rate the borrower is known to have accepted at (never 0, it divides). */
function acceptedAt(rate: number, maxRate: number, market: MarketAssumptions, defaultProbability: number): number {
  const p = acceptProbability(rate, maxRate, { kind: 'none' }, market.response, market.comparison, defaultProbability);
  return Math.max(p, 1e-9);
}

/** A won offer's loan: how it repays, by the recorded fate. */
function wonLoan(request: RecordingLine['loan_request'], fate: Fate, market: MarketAssumptions, probability: number): MarketVerdict {
  if (fate.status === 'completed')
    return { won: true, plan: { kind: 'full', prepayMonth: prepayMonth(request.id, request.loan_terms, market) }, probability };
  const principal = parseCents(request.total_amount);
  // repaid_fraction is a share of the total due at the rate the loan was funded at: the same
  // dollars come back whatever we charged, but never more than we are owed (loanCashFlows caps).
  const repaidCents = Math.round(Math.min(1, Math.max(0, fate.fraction)) * totalRepayment(principal, fate.basisRate, request.loan_terms));
  const final = fate.status !== 'current';
  const missedMonth = final && fate.missedMonth !== undefined ? { missedMonth: fate.missedMonth } : {};
  return { won: true, plan: { kind: 'partial', repaidCents, final, ...missedMonth }, probability };
}

/** The default probability a repayment probability gives the judge: 0 without one (no score). */
export function defaultProbabilityOf(repayment: number | undefined): number {
  return repayment === undefined || Number.isNaN(repayment) ? 0 : 1 - repayment;
}
