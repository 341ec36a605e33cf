/**
 * The greedy oracle: a strategy that reads each request's outcome in the recording, so it never
 * lends to a borrower who will not repay in full, and prices every good loan at the rate with the
 * highest expected interest given what competitors did (also read from the recording). It is not
 * a strategy anyone can run: it is the ceiling decision-quality figures are measured against
 * (bench/decision-quality.ts). It still meets the cash constraint and the market's take-up draw,
 * like every strategy in a backtest.
 */
import { acceptProbability, DEFAULT_MARKET_RESPONSE, MIN_OFFER_RATE, totalRepayment, type CompiledStrategy, type Decision, type MarketResponse } from '../engine/index.js';
import { parseCents } from '../service/index.js';
import type { PreparedRecording } from './prepared-recording.js';
import { recordedCompetition } from './market-model.js';

const RATE_STEP = 0.0025;

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
export function oracleStrategy(recording: PreparedRecording, response: MarketResponse = DEFAULT_MARKET_RESPONSE, hurdleReturn = 0): CompiledStrategy {
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
      const base: Decision = { action: 'skip', automateFund: true, reasons: [], contributions: [], features: {}, strategy: identity, params: {} };
      const outcome = byId.get(request.id)?.outcome;
      if (!outcome || !repaysInFull(outcome)) return { ...base, reasons: ['oracle: does not repay in full'] };
      const competition = recordedCompetition(outcome, 'win');
      if (competition === 'lose') return { ...base, reasons: ['oracle: cannot win'] };
      const total = parseCents(request.total_amount);
      const hurdleCents = (total * hurdleReturn * request.loan_terms) / 12;
      let best = { rate: 0, value: 0 };
      for (let rate = MIN_OFFER_RATE; rate <= request.max_interest_rate + 1e-9; rate += RATE_STEP) {
        const r = Math.min(rate, request.max_interest_rate);
        const value = acceptProbability(r, request.max_interest_rate, competition, response) * (totalRepayment(total, r, request.loan_terms) - total - hurdleCents);
        if (value > best.value) best = { rate: Math.round(r * 10_000) / 10_000, value };
      }
      if (best.value <= 0) return { ...base, reasons: ['oracle: no rate earns'] };
      return { ...base, action: 'offer', rate: best.rate, probability: 1, reasons: [`oracle: offer ${best.rate}`] };
    },
    withParams: () => strategy,
  };
  return strategy;
}
