/**
 * What a scan of the list says about a request that is not in it, for the offer listings of the
 * store (src/store/offer-listings.ts): an unfiltered scan read to the end would have listed every
 * open request; a filtered one only those its filters cover; a scan cut short proves nothing.
 * Coverage is checked for the filters the poll sends (risk level, loan amount: unionListFilters);
 * a scan with any other filter covers nothing, the cautious side.
 */
import type { LoanRequestFilters } from '../service/index.js';
import type { ListingScan, Store } from '../store/index.js';

/** One scan as the poll hands it to the reconciler. */
export interface ScanCoverage {
  ids: ReadonlySet<number>;
  /** Every page read and no filter sent. */
  complete: boolean;
  /** The filters of a scan read to the end (absent for a cut scan). */
  filters?: LoanRequestFilters | undefined;
  startedMs?: number | undefined;
}

/** The scan as the store's listing note reads it. */
export function listingScan(store: Store, scan: ScanCoverage): ListingScan {
  const base = { listedIds: scan.ids, startedMs: scan.startedMs };
  if (scan.complete) return { ...base, wouldList: () => true };
  const filters = scan.filters;
  if (filters === undefined) return { ...base, wouldList: () => false };
  return {
    ...base,
    wouldList: (loanRequestId) => {
      const seen = store.requests.get(loanRequestId);
      return seen !== undefined && filtersCover(filters, JSON.parse(seen.rawJson) as RequestFields);
    },
  };
}

interface RequestFields {
  borrower_card_color?: unknown;
  loan_amount?: unknown;
}

/** Whether a request with these fields passes every filter (only risk level and amount are understood). */
export function filtersCover(filters: LoanRequestFilters, request: RequestFields): boolean {
  for (const [name, value] of Object.entries(filters)) {
    if (value === undefined) continue;
    if (name === 'svcColor') {
      if (request.borrower_card_color !== value) return false;
    } else if (name === 'loanAmount') {
      const amount = Number(request.loan_amount);
      const range = filters.loanAmount ?? {};
      if (!Number.isFinite(amount)) return false;
      if (range.min !== undefined && amount < range.min) return false;
      if (range.max !== undefined && amount > range.max) return false;
    } else {
      return false;
    }
  }
  return true;
}
