/** Marketplace 4.1 (list with filters), 4.2 (make offer) and 4.9 (borrower loan history). */
import type { FastifyInstance } from 'fastify';
import { LIST_WINDOW_MS } from '../market-events.js';
import { borrowerHistoryView, loanRequestView, offerView } from '../resource-views.js';
import { parseLoanRequestQuery } from '../loan-request-query.js';
import type { SandboxRuntime } from '../runtime.js';
import { bodyOf, HttpRefusal, idParam, notFound, paginate, queryOf, refusalError } from './http-helpers.js';

const RATE_TEXT = 'offered_interest must be a number between 0.03 and 2.0.';

export function registerLoanRequestRoutes(app: FastifyInstance, runtime: SandboxRuntime): void {
  const market = runtime.market;

  app.get('/api/v3/loan_requests/', (request) => {
    const matches = parseLoanRequestQuery(queryOf(request), market.account);
    const since = market.now() - LIST_WINDOW_MS;
    // Newest first; only requests still open to offers are listed (our reading of "exclusion criteria").
    const items = [...market.requests.values()].filter((r) => r.status === 'open' && r.createdMs > since && matches(r)).reverse();
    return paginate(request, items, (page) => runtime.faults.corrupt(page.map(loanRequestView)));
  });

  app.post('/api/v3/loan_requests/:id/make_offer/', async (request, reply) => {
    const id = idParam(request, 'id');
    const body = bodyOf(request);
    const rate = body.offered_interest;
    if (typeof rate !== 'number' || !Number.isFinite(rate) || rate < 0.03 || rate > 2.0) {
      throw new HttpRefusal(400, { detail: RATE_TEXT });
    }
    const automate = body.automate_fund ?? false;
    if (typeof automate !== 'boolean') throw new HttpRefusal(400, { detail: 'automate_fund must be true or false.' });
    const outcome = market.makeOffer(id, rate, automate);
    if (!outcome.ok) throw refusalError(outcome.refusal);
    const loanRequest = market.requests.get(id);
    if (!loanRequest) throw notFound();
    return reply.code(201).send(offerView(outcome.value, loanRequest));
  });

  app.get('/api/v3/loan_requests/:loan_request_id/borrower_loan_history/', (request) => {
    const loanRequest = market.requests.get(idParam(request, 'loan_request_id'));
    if (!loanRequest) throw notFound();
    const items = borrowerHistoryView(market.seed, loanRequest, market.shape);
    return paginate(request, items, (page) => runtime.faults.corrupt(page));
  });
}
