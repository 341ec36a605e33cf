/** Marketplace 4.4 (banking data) and 4.5 (third-party providers, billed as the spec prices them). */
import type { FastifyInstance } from 'fastify';
import type { LoanRequestRecord } from '../market-types.js';
import { providerAResult, providerBResult } from '../provider-scores.js';
import { bankingDataView } from '../resource-views.js';
import type { SandboxRuntime } from '../runtime.js';
import { bodyOf, HttpRefusal, positiveIntField } from './http-helpers.js';

export const DATA_TEXTS = {
  invalidId: 'Please provide a valid loan request id.',
  wrongId: 'Wrong loan request id.',
  noAggregation: 'This loan request has no data aggregation.',
  invalidProvider: 'Invalid provider name.',
  noActiveRequest: 'No active loan request found for this id.',
  noScore: 'Score for the loan request not found.',
} as const;

const message = (status: number, text: string): HttpRefusal => new HttpRefusal(status, { message: text });

export function registerDataRoutes(app: FastifyInstance, runtime: SandboxRuntime): void {
  const market = runtime.market;

  app.post('/api/v3/data_marketplace/data_aggregation/fetch_loan_request_data_aggs/', (request) => {
    const id = positiveIntField(bodyOf(request).loan_request_id);
    if (id === undefined) throw message(400, DATA_TEXTS.invalidId);
    const loanRequest = market.requests.get(id);
    if (!loanRequest) throw message(404, DATA_TEXTS.wrongId);
    const view = bankingDataView(loanRequest);
    if (!view) throw message(404, DATA_TEXTS.noAggregation);
    return view;
  });

  app.post('/api/v3/data_marketplace/data_integration/', (request) => {
    const body = bodyOf(request);
    const id = positiveIntField(body.loan_request_id);
    if (id === undefined) throw message(400, DATA_TEXTS.invalidId);
    const name = typeof body.provider_name === 'string' ? body.provider_name.trim() : '';
    const provider = name === runtime.providerNames.a ? 'a' : name === runtime.providerNames.b ? 'b' : undefined;
    if (!provider) throw message(400, DATA_TEXTS.invalidProvider);
    const loanRequest = market.requests.get(id);
    if (!loanRequest || !isActive(loanRequest)) throw message(404, DATA_TEXTS.noActiveRequest);
    // Both providers score from transaction data; without it there is no score (and no charge).
    if (!loanRequest.bank) throw message(404, DATA_TEXTS.noScore);
    runtime.bill(provider, id);
    return provider === 'a'
      ? providerAResult(market.seed, loanRequest, market.now())
      : providerBResult(market.seed, loanRequest, market.now());
  });
}

function isActive(request: LoanRequestRecord): boolean {
  return request.status !== 'canceled' && request.status !== 'expired';
}
