/**
 * The marketplace as the rest of lendbot sees it: one method per endpoint of marketplace part 4.
 * The HTTP client implements it; the backtester plugs in its own.
 */
import type { LoanRequestFilters } from './loan-request-filters.js';
import type {
  BankingData,
  BorrowerLoanHistoryItem,
  FundStarted,
  Loan,
  LoanListStatus,
  LoanPayment,
  LoanRequest,
  Offer,
  ProviderResult,
  TransferDayGroup,
} from '../domain/index.js';
import type { ItemIssue, ValidatedItems } from './validation.js';

/** One page of a paginated list (marketplace 2.1), with the items that failed validation set aside. */
export interface Page<T> {
  count: number;
  next: string | null;
  previous: string | null;
  items: T[];
  issues: ItemIssue[];
}

export interface MakeOfferInput {
  /** Between 0.03 and 2.0, in the API's unit. */
  offeredInterest: number;
  /** Fund automatically once the borrower accepts (default false, as the service's default). */
  automateFund?: boolean;
}

/** Pages of a list, fetched lazily by following `next`. */
export type PageIterator<T> = AsyncGenerator<Page<T>, void, undefined>;

export interface MarketplaceApi {
  /** 4.1: one page of loan requests (page numbers start at 1). */
  listLoanRequests(filters?: LoanRequestFilters, page?: number): Promise<Page<LoanRequest>>;
  /** 4.1: every page of loan requests. */
  loanRequestPages(filters?: LoanRequestFilters): PageIterator<LoanRequest>;
  /** 4.2: offer on a loan request. Never retried; see AMBIGUOUS_OUTCOME. */
  makeOffer(loanRequestId: number, input: MakeOfferInput): Promise<Offer>;
  /** 4.3: fund an accepted offer. Never retried. */
  fundAcceptedOffer(offerId: number): Promise<FundStarted>;
  /** 4.4: banking data aggregation of a loan request. */
  fetchBankingData(loanRequestId: number): Promise<BankingData>;
  /** 4.5: a third-party provider's result (provider B is billed per call). */
  fetchProviderResult(loanRequestId: number, providerName: string): Promise<ProviderResult>;
  /** 4.6: one page of transfer history. */
  listTransfers(page?: number): Promise<Page<TransferDayGroup>>;
  transferPages(): PageIterator<TransferDayGroup>;
  /** 4.7: one page of the investor's loans with a status. */
  listLoans(status: LoanListStatus, page?: number): Promise<Page<Loan>>;
  loanPages(status: LoanListStatus): PageIterator<Loan>;
  /** 4.8: the payments of a loan (a plain array). */
  listLoanPayments(loanId: number): Promise<ValidatedItems<LoanPayment>>;
  /** 4.9: one page of a borrower's completed loans. */
  listBorrowerLoanHistory(loanRequestId: number, page?: number): Promise<Page<BorrowerLoanHistoryItem>>;
  borrowerLoanHistoryPages(loanRequestId: number): PageIterator<BorrowerLoanHistoryItem>;
}

/**
 * Every item of every page, and every issue, of a page iterator. A list that changes while it
 * is read (a new request pushes the others one place down) can show an item on two pages: items
 * with an `id` are kept once, at their first sighting.
 */
export async function collectPages<T>(pages: PageIterator<T>): Promise<{ items: T[]; issues: ItemIssue[] }> {
  const items: T[] = [];
  const issues: ItemIssue[] = [];
  const seen = new Set<unknown>();
  for await (const page of pages) {
    for (const item of page.items) {
      const id = typeof item === 'object' && item !== null ? (item as { id?: unknown }).id : undefined;
      if (id !== undefined) {
        if (seen.has(id)) continue;
        seen.add(id);
      }
      items.push(item);
    }
    issues.push(...page.issues);
  }
  return { items, issues };
}
