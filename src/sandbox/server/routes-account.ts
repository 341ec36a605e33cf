/** Marketplace 4.6 (transfer history), 4.7 (loans by status) and 4.8 (payments of a loan). */
import type { FastifyInstance } from 'fastify';
import type { LoanListStatus } from '../../domain/index.js';
import { LOAN_LIST_PATHS } from '../../service/index.js';
import { INVESTOR } from '../loan-servicing.js';
import type { LoanRecord } from '../market-types.js';
import { loanView, paymentView, transferGroupsView } from '../resource-views.js';
import type { SandboxRuntime } from '../runtime.js';
import { idParam, notFound, paginate } from './http-helpers.js';

const STATUSES_BY_LIST: Record<LoanListStatus, ReadonlyArray<LoanRecord['status']>> = {
  current: ['pending', 'funded'],
  completed: ['completed'],
  collection: ['collection'],
  default: ['default'],
};

export function registerAccountRoutes(app: FastifyInstance, runtime: SandboxRuntime): void {
  const market = runtime.market;

  app.get('/api/v3/transfer_history/', (request) =>
    paginate(request, transferGroupsView(market.ledger.all()), (page) => runtime.faults.corrupt(page)),
  );

  for (const [list, path] of Object.entries(LOAN_LIST_PATHS) as Array<[LoanListStatus, string]>) {
    app.get(path, (request) => {
      const statuses = STATUSES_BY_LIST[list];
      const loans = [...market.loanBook.loans.values()]
        .filter((loan) => loan.lender === INVESTOR && statuses.includes(loan.status))
        .reverse();
      return paginate(request, loans, (page) =>
        runtime.faults.corrupt(
          page.map((loan) => {
            const loanRequest = market.requests.get(loan.loanRequestId);
            if (!loanRequest) throw new Error(`loan ${loan.id} has no request`);
            return loanView(loan, loanRequest, market.loanBook);
          }),
        ),
      );
    });
  }

  app.get('/api/v3/loans/:id/payments/', (request) => {
    const loan = market.loanBook.loans.get(idParam(request, 'id'));
    if (!loan || loan.lender !== INVESTOR) throw notFound();
    return runtime.faults.corrupt(loan.payments.map(paymentView));
  });
}
