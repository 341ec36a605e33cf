/**
 * The HTTP implementation of MarketplaceApi: endpoint paths, argument checks made before
 * sending, response validation and pagination.
 */
import type { z } from 'zod';
import { InvalidArgumentError, ServiceError } from './errors.js';
import type { CallSpec, HttpTransport, RetryClass } from './http-transport.js';
import { encodeLoanRequestFilters, type LoanRequestFilters } from './loan-request-filters.js';
import type { MakeOfferInput, MarketplaceApi, Page, PageIterator } from './marketplace-api.js';
import type { NumericRangeFormat } from './numeric-filters.js';
import { followPages } from './pagination.js';
import {
  bankingDataSchema,
  fundStartedSchema,
  LOAN_STATUSES,
  loanPaymentSchema,
  MAX_RATE,
  MIN_RATE,
  offerSchema,
  providerResultSchema,
  transferDayGroupSchema,
  type LoanListStatus,
  type BankingData,
  type BorrowerLoanHistoryItem,
  type FundStarted,
  type Loan,
  type LoanPayment,
  type LoanRequest,
  type Offer,
  type ProviderResult,
  type TransferDayGroup,
} from '../domain/index.js';
import {
  pageEnvelopeSchema,
  plausibleBorrowerLoanHistoryItemSchema,
  plausibleLoanRequestSchema,
  plausibleLoanSchema,
} from './schemas/index.js';
import { validateItems, validateOne, validateOutcome, type ValidatedItems } from './validation.js';

/** Loans-by-status paths of marketplace 4.7. */
export const LOAN_LIST_PATHS: Record<LoanListStatus, string> = {
  current: '/api/v3/loans/current_loan/',
  completed: '/api/v3/loans/completed_loan/',
  collection: '/api/v3/loans/collection_loan/',
  default: '/api/v3/loans/default_loan/',
};

export class MarketplaceClient implements MarketplaceApi {
  constructor(
    private readonly transport: HttpTransport,
    private readonly rangeFormat: NumericRangeFormat = 'min-max-params',
  ) {}

  /** Closes kept-alive connections. */
  close(): void {
    this.transport.close();
  }

  /** Shutdown: cancels the calls in flight and refuses new ones (HttpTransport.abandon); how many were in flight. */
  abandon(): number {
    return this.transport.abandon();
  }

  listLoanRequests(filters: LoanRequestFilters = {}, page?: number): Promise<Page<LoanRequest>> {
    return this.firstPage(plausibleLoanRequestSchema, this.loanRequestsCall(filters, page));
  }

  loanRequestPages(filters: LoanRequestFilters = {}): PageIterator<LoanRequest> {
    return this.pages(plausibleLoanRequestSchema, this.loanRequestsCall(filters));
  }

  async makeOffer(loanRequestId: number, input: MakeOfferInput): Promise<Offer> {
    checkId(loanRequestId, 'loan request id');
    checkRate(input.offeredInterest);
    const result = await this.transport.call({
      method: 'POST',
      target: `/api/v3/loan_requests/${loanRequestId}/make_offer/`,
      body: { offered_interest: input.offeredInterest, automate_fund: input.automateFund ?? false },
      // Marketplace 4.2 shows no refusal status (no refusalStatuses): only a recognised text refuses an offer.
      retryClass: 'unsafe',
      responseKind: 'offers',
    });
    return validateOutcome(offerSchema, result);
  }

  async fundAcceptedOffer(offerId: number): Promise<FundStarted> {
    checkId(offerId, 'offer id');
    const result = await this.transport.call({
      method: 'POST',
      target: `/api/v3/accepted_offers/${offerId}/fund/`,
      body: {},
      retryClass: 'unsafe',
      withBearer: true,
      responseKind: 'offers',
      // Marketplace 4.3: 400 {detail} means the offer cannot be funded, whatever the text.
      refusalStatuses: [400],
    });
    return validateOutcome(fundStartedSchema, result);
  }

  async fetchBankingData(loanRequestId: number): Promise<BankingData> {
    checkId(loanRequestId, 'loan request id');
    const result = await this.transport.call({
      method: 'POST',
      target: '/api/v3/data_marketplace/data_aggregation/fetch_loan_request_data_aggs/',
      body: { loan_request_id: loanRequestId },
      // A read in effect: fetching the same aggregation twice changes nothing.
      retryClass: 'read',
      responseKind: 'banking_data',
    });
    return validateOne(bankingDataSchema, result);
  }

  async fetchProviderResult(loanRequestId: number, providerName: string): Promise<ProviderResult> {
    checkId(loanRequestId, 'loan request id');
    if (providerName.trim() === '') throw new InvalidArgumentError('provider name is empty');
    const result = await this.transport.call({
      method: 'POST',
      target: '/api/v3/data_marketplace/data_integration/',
      body: { loan_request_id: loanRequestId, provider_name: providerName },
      retryClass: 'paid',
      responseKind: 'provider_results',
    });
    return validateOne(providerResultSchema, result);
  }

  listTransfers(page?: number): Promise<Page<TransferDayGroup>> {
    return this.firstPage(transferDayGroupSchema, getCall('/api/v3/transfer_history/', page));
  }

  transferPages(): PageIterator<TransferDayGroup> {
    return this.pages(transferDayGroupSchema, getCall('/api/v3/transfer_history/'));
  }

  listLoans(status: LoanListStatus, page?: number): Promise<Page<Loan>> {
    return this.firstPage(plausibleLoanSchema, getCall(loanListPath(status), page));
  }

  loanPages(status: LoanListStatus): PageIterator<Loan> {
    return this.pages(plausibleLoanSchema, getCall(loanListPath(status)));
  }

  async listLoanPayments(loanId: number): Promise<ValidatedItems<LoanPayment>> {
    checkId(loanId, 'loan id');
    const result = await this.transport.call(getCall(`/api/v3/loans/${loanId}/payments/`));
    if (!Array.isArray(result.body)) {
      throw new ServiceError('MALFORMED_RESPONSE', 'expected a plain array of payments', {
        method: result.method,
        path: result.path,
        status: result.status,
      });
    }
    return validateItems(loanPaymentSchema, result.body, `${result.method} ${result.path}`);
  }

  listBorrowerLoanHistory(loanRequestId: number, page?: number): Promise<Page<BorrowerLoanHistoryItem>> {
    checkId(loanRequestId, 'loan request id');
    return this.firstPage(plausibleBorrowerLoanHistoryItemSchema, getCall(historyPath(loanRequestId), page));
  }

  borrowerLoanHistoryPages(loanRequestId: number): PageIterator<BorrowerLoanHistoryItem> {
    checkId(loanRequestId, 'loan request id');
    return this.pages(plausibleBorrowerLoanHistoryItemSchema, getCall(historyPath(loanRequestId)));
  }

  private loanRequestsCall(filters: LoanRequestFilters, page?: number): CallSpec {
    const query = encodeLoanRequestFilters(filters, this.rangeFormat);
    return getCall('/api/v3/loan_requests/', page, query);
  }

  private async firstPage<S extends z.ZodType>(schema: S, call: CallSpec): Promise<Page<z.infer<S>>> {
    const result = await this.transport.call(call);
    const envelope = validateOne(pageEnvelopeSchema, result);
    const { items, issues } = validateItems(schema, envelope.results, `${result.method} ${result.path}`);
    return { count: envelope.count, next: envelope.next, previous: envelope.previous, items, issues };
  }

  private pages<S extends z.ZodType>(schema: S, first: CallSpec): PageIterator<z.infer<S>> {
    return followPages((call) => this.firstPage(schema, call), first);
  }
}

function getCall(path: string, page?: number, query: Array<[string, string]> = []): CallSpec {
  if (page !== undefined) {
    if (!Number.isInteger(page) || page < 1) throw new InvalidArgumentError(`page must be a whole number from 1 (got ${page})`);
    query = [...query, ['page', String(page)]];
  }
  const retryClass: RetryClass = 'read';
  return { method: 'GET', target: path, query, retryClass, responseKind: 'lists' };
}

function loanListPath(status: LoanListStatus): string {
  if (!LOAN_STATUSES.includes(status)) {
    throw new InvalidArgumentError(`loan status must be one of ${LOAN_STATUSES.join(', ')} (got ${String(status)})`);
  }
  return LOAN_LIST_PATHS[status];
}

function historyPath(loanRequestId: number): string {
  return `/api/v3/loan_requests/${loanRequestId}/borrower_loan_history/`;
}

function checkId(value: number, what: string): void {
  if (!Number.isSafeInteger(value) || value <= 0) throw new InvalidArgumentError(`${what} must be a positive integer (got ${value})`);
}

/** Refuses a rate outside 0.03 to 2.0 before anything is sent. */
function checkRate(rate: number): void {
  if (!Number.isFinite(rate) || rate < MIN_RATE || rate > MAX_RATE) {
    throw new InvalidArgumentError(`offered interest must be between ${MIN_RATE} and ${MAX_RATE} (got ${rate})`);
  }
}
