import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankingDataSchema, providerAResultSchema, providerBResultSchema, type BankingData } from '../../src/domain/index.js';
import { aggregate90, type BankTransactionData } from '../../src/sandbox/bank-history.js';
import { HOUR, serviceFailure, startFixture, type Fixture } from './sandbox-fixture.js';
import { signedHeaders } from './signed-headers.js';

let fx: Fixture;
beforeAll(async () => {
  fx = await startFixture({ providerNames: { a: 'acme_score', b: 'cashflow_plus' } });
});
afterAll(async () => fx.close());

async function failure(promise: Promise<unknown>): Promise<[number | undefined, string | undefined]> {
  const error = await serviceFailure(promise);
  return [error.status, error.serviceText];
}

describe('fetch banking data (spec 4.4)', () => {
  it('returns 2.9 with agg_90 computed from the transactions it carries', async () => {
    const request = fx.sandbox.control.createLoanRequest({ hasBankingData: true });
    const data: BankingData = await fx.client.fetchBankingData(request.id);
    expect(bankingDataSchema.safeParse(data).success).toBe(true);
    const transactions = data.data_aggregation?.DepAcctTrns?.BankAcctTrnRec as BankTransactionData[];
    expect(transactions.length).toBeGreaterThan(20);
    const recomputed = aggregate90(transactions, Date.parse(data.created), Math.round(Number(data.borrower_bank_balance) * 100));
    expect(data.agg_90).toEqual(recomputed.agg90);
    expect(data.agg_90.total_credit).toBeCloseTo(
      Number(data.agg_90.credit_30) + Number(data.agg_90.credit_60) + Number(data.agg_90.credit_90),
      2,
    );
    expect(request.borrower_data_aggs?.avg_credit).toBe(data.agg_90.avg_credit);
    expect(data.agg_90).toHaveProperty('transportation_spending_last_90');
    expect(data.agg_90).toHaveProperty('cash_advance_last90');
  });

  it('answers 400 for a bad id and 404 for an unknown request or one without data', async () => {
    const response = await fetch(`${fx.sandbox.url}/api/v3/data_marketplace/data_aggregation/fetch_loan_request_data_aggs/`, {
      method: 'POST',
      headers: { ...signedHeaders(fx.sandbox), 'Content-Type': 'application/json' },
      body: JSON.stringify({ loan_request_id: 'abc' }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message: 'Please provide a valid loan request id.' });
    expect(await failure(fx.client.fetchBankingData(424_242))).toEqual([404, 'Wrong loan request id.']);
    const none = fx.sandbox.control.createLoanRequest({ hasBankingData: false });
    expect(none.borrower_data_aggs).toBeNull();
    expect(await failure(fx.client.fetchBankingData(none.id))).toEqual([404, 'This loan request has no data aggregation.']);
  });
});

describe('fetch third-party service (spec 4.5)', () => {
  it('returns each provider’s result and bills provider B per request, provider A per month', async () => {
    const request = fx.sandbox.control.createLoanRequest({ hasBankingData: true });
    const a = await fx.client.fetchProviderResult(request.id, 'acme_score');
    expect(providerAResultSchema.safeParse(a).success).toBe(true);
    const b = await fx.client.fetchProviderResult(request.id, 'cashflow_plus');
    const parsedB = providerBResultSchema.parse(b);
    expect(parsedB.p2p_score.loan_request_id).toBe(String(request.id));
    const again = providerBResultSchema.parse(await fx.client.fetchProviderResult(request.id, 'cashflow_plus'));
    expect(again.p2p_score.score).toBe(parsedB.p2p_score.score);
    await fx.client.fetchProviderResult(request.id, 'acme_score');
    expect(fx.sandbox.control.billing()).toEqual({
      providerA: { name: 'acme_score', monthlyFee: '200.00', months: ['2026-01'], total: '200.00' },
      providerB: { name: 'cashflow_plus', perRequest: '1.50', requests: 2, total: '3.00' },
      total: '203.00',
    });
  });

  it('answers 400 for an unknown provider and 404 when there is no score or no active request', async () => {
    const control = fx.sandbox.control;
    const request = control.createLoanRequest({ hasBankingData: true });
    expect(await failure(fx.client.fetchProviderResult(request.id, 'other'))).toEqual([400, 'Invalid provider name.']);
    expect(await failure(fx.client.fetchProviderResult(99_999, 'acme_score'))).toEqual([404, 'No active loan request found for this id.']);
    const none = control.createLoanRequest({ hasBankingData: false });
    expect(await failure(fx.client.fetchProviderResult(none.id, 'cashflow_plus'))).toEqual([404, 'Score for the loan request not found.']);
    const canceled = control.createLoanRequest({ cancel: true, decisionDelayMs: HOUR, competitorOffers: 0 });
    control.advance(HOUR);
    expect(await failure(fx.client.fetchProviderResult(canceled.id, 'acme_score'))).toEqual([
      404,
      'No active loan request found for this id.',
    ]);
  });
});
