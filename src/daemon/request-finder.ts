/**
 * Finding one loan request by id. The spec has no single-request endpoint, so the list is
 * narrowed with what a webhook event tells (the amount, and crypto-backed or not) and scanned for
 * the id; if the narrowed list misses it (a filter format the service reads differently), the
 * whole list is scanned once. Scans are scanPages': a list that shrinks while it is read (a 404
 * on a later page) ends the scan rather than failing it; a request it missed that way is still
 * open, and the next poll decides it.
 */
import type { Logger } from '../log/logger.js';
import type { LoanRequest } from '../domain/index.js';
import { scanPages, type LoanRequestFilters, type MarketplaceApi, type ScanProgress } from '../service/index.js';

export interface RequestHint {
  loanRequestId: number;
  /** `loan_request_amount` of the webhook event, in USD. */
  amount?: number | undefined;
  /** `loan_request_type`: 'cash' or 'crypto'. */
  type?: string | undefined;
}

export async function findLoanRequest(client: MarketplaceApi, hint: RequestHint, log: Logger): Promise<LoanRequest | undefined> {
  const narrowed: LoanRequestFilters = {};
  if (hint.amount !== undefined && Number.isFinite(hint.amount)) {
    narrowed.loanAmount = { min: Math.floor(hint.amount), max: Math.ceil(hint.amount) };
  }
  if (hint.type === 'crypto') narrowed.svcColor = 4;
  const attempts: LoanRequestFilters[] = Object.keys(narrowed).length > 0 ? [narrowed, {}] : [{}];
  for (const filters of attempts) {
    const progress: ScanProgress = { pages: 0 };
    for await (const page of scanPages(client.loanRequestPages(filters), progress)) {
      const found = page.items.find((request) => request.id === hint.loanRequestId);
      if (found) return found;
      // A bad item with our id would otherwise look like "not listed".
      const bad = page.issues.find((issue) => issue.itemId === hint.loanRequestId);
      if (bad) {
        log.warn({ loanRequestId: hint.loanRequestId, path: bad.path, message: bad.message }, 'loan request failed validation');
        return undefined;
      }
    }
    if (progress.cut)
      log.info(
        { loanRequestId: hint.loanRequestId, cut: progress.cut.reason, page: progress.cut.page },
        'list scan ended early; looking on',
      );
  }
  return undefined;
}
