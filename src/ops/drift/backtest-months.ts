/**
 * The backtest side of the drift report (docs/backtesting.md, "Backtest against live"): the
 * lender's own recording replayed with the strategies, month by month (the month each request was
 * seen), and what the replay's market model EXPECTED of each offer it made:
 *
 * - acceptance: the model's take-up at the offered rate (acceptProbability, with the replay's
 *   market response; the daemon's recording names no competing offer, so none is assumed). Not the
 *   replay's own draws: on the daemon's recording those can only be won where the live offer was
 *   (the recording knows no other outcome), which would make the backtest agree with live by
 *   construction;
 * - fills: the sum of those chances (the loans the model expects);
 * - default: the strategy's predicted default of its offers (1 − its repayment probability);
 * - return: the strategy's expected annual return at the offered rate (defaults included),
 *   weighted by each offer's expected lending (P(accept) × amount).
 */
import { acceptProbability } from '../../engine/index.js';
import type { BacktestResult, PreparedRecording } from '../../backtest/index.js';
import { parseCents } from '../../domain/index.js';

/** One month of the replay, as its market model expected it. */
export interface BacktestMonth {
  month: string;
  requests: number;
  offers: number;
  /** Sum of P(accept) over the offers: the fills the model expects. */
  acceptSum: number;
  /** Sum of the offers' predicted default (offers with a probability) and how many had one. */
  predictedDefaultSum: number;
  predicted: number;
  /** Sum of P(accept) × amount, and of that × the expected annual return (offers with one). */
  expectedLentCents: number;
  expectedReturnWeighted: number;
  expectedReturnWeight: number;
}

/** A month with nothing in it. */
export function emptyBacktestMonth(month: string): BacktestMonth {
  return {
    month,
    requests: 0,
    offers: 0,
    acceptSum: 0,
    predictedDefaultSum: 0,
    predicted: 0,
    expectedLentCents: 0,
    expectedReturnWeighted: 0,
    expectedReturnWeight: 0,
  };
}

/** The replay's months, oldest first; `result` must hold its decisions (recordDecisions). */
export function backtestMonths(result: BacktestResult, recording: PreparedRecording): BacktestMonth[] {
  const requests = new Map(recording.entries.map((entry) => [entry.line.loan_request.id, entry.line.loan_request]));
  const { response, comparison } = result.settings.market;
  const months = new Map<string, BacktestMonth>();
  for (const decision of result.decisions) {
    const key = decision.decided_at.slice(0, 7);
    const month = months.get(key) ?? emptyBacktestMonth(key);
    months.set(key, month);
    month.requests += 1;
    const request = requests.get(decision.loan_request_id);
    if (decision.action !== 'offer' || decision.rate === null || request === undefined) continue;
    month.offers += 1;
    const defaultProbability = decision.probability === null ? 0 : 1 - decision.probability;
    const accept = acceptProbability(decision.rate, request.max_interest_rate, { kind: 'none' }, response, comparison, defaultProbability);
    month.acceptSum += accept;
    if (decision.probability !== null) {
      month.predictedDefaultSum += defaultProbability;
      month.predicted += 1;
    }
    const lent = accept * parseCents(request.total_amount);
    month.expectedLentCents += lent;
    if (decision.expected_return !== undefined) {
      month.expectedReturnWeighted += lent * decision.expected_return;
      month.expectedReturnWeight += lent;
    }
  }
  return [...months.values()].sort((a, b) => (a.month < b.month ? -1 : a.month > b.month ? 1 : 0));
}
