/**
 * The greedy oracle: a strategy that reads each request's outcome in the recording, so it never
 * lends to a borrower who will not repay in full, and prices every good loan at the rate with the
 * highest expected interest given what competitors did (also read from the recording). It is not
 * a strategy anyone can run: it is the ceiling decision-quality figures are measured against
 * (bench/decision-quality.ts). It still meets the cash constraint and the market's take-up draw,
 * like every strategy in a backtest. Where the recording says the highest rate the borrower
 * accepts (`reservation_rate`), it knows that too and offers the highest rate that still wins.
 */
import {
  acceptProbability,
  DEFAULT_MARKET_RESPONSE,
  type CompetitionComparison,
  type CompiledStrategy,
  type Decision,
  type MarketResponse,
  type RecordedCompetition,
} from '../engine/index.js';
import { MIN_OFFER_RATE, totalRepayment } from '../math/index.js';
import { parseCents } from '../domain/index.js';
import { otherReason } from '../domain/decision-reason.js';
import type { PreparedRecording } from './prepared-recording.js';
import { recordedCompetition } from './market-model.js';
import { borrowerChoice } from './recorded-acceptance.js';

const RATE_STEP = 0.0025;
/** Offered rates are rounded down to this (four decimals), so a rate that wins still wins after rounding. */
const RATE_UNIT = 10_000;

/**
 * The highest four-decimal rate recorded acceptance lets win: at most the reservation rate and
 * the request's maximum, strictly below a competing rate; null when none from 0.03 up does.
 */
export function highestWinningRate(reservation: number, maxRate: number, competition: RecordedCompetition): number | null {
  const cap = Math.min(reservation, maxRate);
  const competing = competition.kind === 'none' ? Number.POSITIVE_INFINITY : competition.rate;
  const wins = (units: number): boolean => borrowerChoice(units / RATE_UNIT, cap, competition) === 'won';
  // Start just above the answer and step down: floating-point rounding may put it one unit off.
  let units = Math.floor(Math.min(cap, competing) * RATE_UNIT) + 1;
  while (units > 0 && !wins(units)) units -= 1;
  const rate = units / RATE_UNIT;
  return rate >= MIN_OFFER_RATE ? rate : null;
}

/** Whether the recording says this borrower repays in full once funded. */
function repaysInFull(outcome: NonNullable<PreparedRecording['entries'][number]['line']['outcome']>): boolean {
  if (outcome.status === 'unfunded') return outcome.if_funded?.status === 'completed';
  return outcome.status === 'completed';
}

/**
 * `hurdleReturn` (a year, on the money lent) is subtracted from each loan's interest before the
 * price is chosen, so with a scarce balance the oracle keeps its cash for loans that earn more
 * than the hurdle instead of lending it all to the first good borrowers (0: purely greedy).
 */
export function oracleStrategy(
  recording: PreparedRecording,
  response: MarketResponse = DEFAULT_MARKET_RESPONSE,
  hurdleReturn = 0,
  comparison: CompetitionComparison = 'hard',
): CompiledStrategy {
  const byId = new Map(recording.entries.map((entry) => [entry.line.loan_request.id, entry.line]));
  const identity = { name: 'oracle', version: '1', contentHash: 'oracle' };
  const strategy: CompiledStrategy = {
    ...identity,
    description: 'knows every outcome: lends only to borrowers who repay, at the best expected price',
    file: '(oracle)',
    kind: 'plugin',
    params: {},
    paramSpecs: {},
    dataPolicy: { monthlyBudgetCents: 0, bankingData: 'never', providers: [] },
    automateFund: true,
    features: [],
    evaluate(request): Decision {
      const base: Decision = {
        action: 'skip',
        automateFund: true,
        reasons: [],
        contributions: [],
        features: {},
        strategy: identity,
        params: {},
      };
      const outcome = byId.get(request.id)?.outcome;
      if (!outcome || !repaysInFull(outcome)) return { ...base, reasons: [otherReason('oracle: does not repay in full')] };
      const competition = recordedCompetition(outcome, 'win');
      if (competition === 'lose') return { ...base, reasons: [otherReason('oracle: cannot win')] };
      const total = parseCents(request.total_amount);
      const hurdleCents = (total * hurdleReturn * request.loan_terms) / 12;
      if (outcome.reservation_rate !== undefined) {
        const rate = highestWinningRate(outcome.reservation_rate, request.max_interest_rate, competition);
        if (rate === null) return { ...base, reasons: [otherReason('oracle: cannot win')] };
        if (totalRepayment(total, rate, request.loan_terms) - total - hurdleCents <= 0)
          return { ...base, reasons: [otherReason('oracle: no rate earns')] };
        return { ...base, action: 'offer', rate, probability: 1, reasons: [otherReason(`oracle: offer ${rate}`)] };
      }
      let best = { rate: 0, value: 0 };
      for (let rate = MIN_OFFER_RATE; rate <= request.max_interest_rate + 1e-9; rate += RATE_STEP) {
        const r = Math.min(rate, request.max_interest_rate);
        const value =
          acceptProbability(r, request.max_interest_rate, competition, response, comparison) *
          (totalRepayment(total, r, request.loan_terms) - total - hurdleCents);
        if (value > best.value) best = { rate: Math.round(r * 10_000) / 10_000, value };
      }
      if (best.value <= 0) return { ...base, reasons: [otherReason('oracle: no rate earns')] };
      return { ...base, action: 'offer', rate: best.rate, probability: 1, reasons: [otherReason(`oracle: offer ${best.rate}`)] };
    },
    withParams: () => strategy,
  };
  return strategy;
}
