/**
 * The two third-party score providers of marketplace 2.10. Both read the same observable features as
 * everyone else, each with its own error, so buying a score adds information without revealing
 * the hidden truth. A request's score is the same on every call (its noise is drawn from the
 * request's own stream); only the timestamp moves.
 */
import { providerBBand } from '../domain/index.js';
import { logistic } from '../math/index.js';
import { aggNumber } from './repayment-model.js';
import type { LoanRequestRecord } from './market-types.js';
import { clamp, forkRandom, roundTo } from './random.js';
import { isoDate, isoTime } from './resource-views.js';

type Json = Record<string, unknown>;

/** Provider A: a 300-900 score with a model version and a request id. */
export function providerAResult(seed: number, request: LoanRequestRecord, nowMs: number): Json {
  const random = forkRandom(seed, 'provider-a', request.id);
  const score = Math.round(300 + 600 * logistic(request.truth.observableLogit + random.normal(0, 0.55)));
  return {
    loan_request_id: request.id,
    model_version: 'a-score-2.3.1',
    a_score: score,
    a_score_request_id: random.uuid(),
    timestamp: isoTime(nowMs),
  };
}

/** Provider B: a 0-100 score with its band, and a few calculated bank attributes. */
export function providerBResult(seed: number, request: LoanRequestRecord, nowMs: number): Json {
  const random = forkRandom(seed, 'provider-b', request.id);
  const score = Math.round(clamp(100 * logistic(request.truth.observableLogit - 1.2 + random.normal(0, 0.45)), 0, 100));
  const agg = request.bank?.agg90;
  const attributes: Json = agg
    ? {
        avg_monthly_income: aggNumber(agg, 'avg_credit'),
        avg_monthly_spending: aggNumber(agg, 'avg_debit'),
        nsf_count_90d: aggNumber(agg, 'negative_balance_count'),
        cash_advance_share_90d: aggNumber(agg, 'cash_advance_percentage_from_total'),
        bank_fee_share_90d: aggNumber(agg, 'bank_fees_spending_percentage_from_total'),
        income_stability: roundTo(clamp(0.7 + random.normal(0, 0.15), 0, 1), 3),
      }
    : {};
  const date = isoDate(nowMs);
  const id = String(request.id);
  return {
    p2p_score: { date, score, score_band: providerBBand(score), loan_request_id: id },
    attributes: { date, loan_request_id: id, attributes },
  };
}
