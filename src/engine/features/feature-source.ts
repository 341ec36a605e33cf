/**
 * The inputs features are computed from: the request and what was bought about it. Provider
 * results are told apart by shape (provider A carries `a_score`, provider B `p2p_score`), since
 * the providers' names are brand names only the operator knows.
 */
import {
  parseCents,
  type Agg90,
  type BankingData,
  type Borrower,
  type BorrowerLoanHistoryItem,
  type LoanRequest,
  type ProviderAResult,
  type ProviderBResult,
} from '../../domain/index.js';
import type { Enrichment } from '../enrichment.js';

export interface FeatureSource {
  request: LoanRequest;
  borrower: Borrower;
  loanAmountCents: number;
  totalAmountCents: number;
  bankingData: BankingData | undefined;
  agg90: Agg90 | undefined;
  history: readonly BorrowerLoanHistoryItem[] | undefined;
  providerA: ProviderAResult | undefined;
  providerB: ProviderBResult | undefined;
  /**
   * The last price computed from this source, kept by the strategy's pricing
   * (compile-strategy.ts): a source is its request with one set of data objects, kept per request
   * by the feature table, so this is where a price remembered per request costs least.
   */
  lastPrice?: object | undefined;
}

function isProviderA(result: unknown): result is ProviderAResult {
  return typeof result === 'object' && result !== null && 'a_score' in result;
}

function isProviderB(result: unknown): result is ProviderBResult {
  return typeof result === 'object' && result !== null && 'p2p_score' in result;
}

/** The first provider A and provider B result among what was bought. */
export function providersOf(enrichment: Enrichment): { providerA: ProviderAResult | undefined; providerB: ProviderBResult | undefined } {
  let providerA: ProviderAResult | undefined;
  let providerB: ProviderBResult | undefined;
  if (enrichment.providerResults === undefined) return { providerA, providerB };
  for (const result of Object.values(enrichment.providerResults)) {
    if (isProviderA(result)) providerA ??= result;
    else if (isProviderB(result)) providerB ??= result;
  }
  return { providerA, providerB };
}

export function featureSource(request: LoanRequest, enrichment: Enrichment): FeatureSource {
  const { providerA, providerB } = providersOf(enrichment);
  return {
    request,
    borrower: request.borrower,
    loanAmountCents: parseCents(request.loan_amount),
    totalAmountCents: parseCents(request.total_amount),
    bankingData: enrichment.bankingData,
    agg90: enrichment.bankingData?.agg_90,
    history: enrichment.borrowerHistory,
    providerA,
    providerB,
    lastPrice: undefined,
  };
}

/**
 * The source of the same request as `known` with other data objects (a decide step's round after
 * buying): the request's parsed amounts are taken from `known` instead of parsed again.
 */
export function featureSourceAgain(
  known: FeatureSource,
  enrichment: Enrichment,
  providers: { providerA: ProviderAResult | undefined; providerB: ProviderBResult | undefined },
): FeatureSource {
  return {
    request: known.request,
    borrower: known.borrower,
    loanAmountCents: known.loanAmountCents,
    totalAmountCents: known.totalAmountCents,
    bankingData: enrichment.bankingData,
    agg90: enrichment.bankingData?.agg_90,
    history: enrichment.borrowerHistory,
    providerA: providers.providerA,
    providerB: providers.providerB,
    lastPrice: undefined,
  };
}
