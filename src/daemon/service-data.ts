/**
 * The daemon's two seams of the decide step (src/engine/decide-step.ts): data comes from the
 * service (marketplace 4.4 banking data, 4.5 provider scores, 4.9 borrower history) and spend is recorded in the purchases
 * table, which the monthly budget reads back.
 */
import type { DataSource, Fetched, SpendLedger } from '../engine/index.js';
import type { BorrowerLoanHistoryItem } from '../domain/index.js';
import { ServiceError, type MarketplaceApi } from '../service/index.js';
import type { Store } from '../store/index.js';

/**
 * Failures that say nothing about the request: the service is down, throttling us, or refusing our
 * credentials or clock. Any other failure (an answer lendbot cannot read, a body too large, a
 * status that belongs to that one call) is the request's own: the pipeline retries it a bounded
 * number of times, then decides without that data (src/daemon/request-retries.ts).
 */
const SERVICE_WIDE_CODES: ReadonlySet<string> = new Set(['RATE_LIMITED', 'SERVER_ERROR', 'NETWORK_ERROR', 'AMBIGUOUS_OUTCOME']);

/** Whether a failed data call is the request's own problem rather than an outage of the service. */
export function isRequestOwnFailure(error: unknown): boolean {
  if (!(error instanceof ServiceError)) return false;
  if (SERVICE_WIDE_CODES.has(error.code) || error.code.startsWith('AUTH_')) return false;
  return error.status === undefined || error.status < 500;
}

/**
 * A 404 is "not there"; a provider's 400 too (it does not know the request). Anything else is
 * passed on as `outage` (the decide step throws it, and the pipeline sorts the request's own
 * failures from outages of the service).
 */
async function fetched<T>(call: () => Promise<T>, options: { refusedIsMissing: boolean }): Promise<Fetched<T>> {
  try {
    return { ok: true, value: await call() };
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    const detail = error.serviceText ?? error.code;
    if (error.code === 'NOT_FOUND' || (options.refusedIsMissing && error.code === 'RULE_REFUSED')) return { ok: false, detail };
    // A call the service answered with a 5xx may be billed even though it failed; one it answered
    // with a 2xx we cannot read was served, so billed.
    const billed = error.status !== undefined && (error.status >= 500 || (error.status >= 200 && error.status < 300));
    return { ok: false, detail: error.serviceText ?? error.message, billed, outage: error };
  }
}

/**
 * Marketplace 4.9, every page (a borrower's completed loans: a page or two). Items that fail validation
 * are left out, as on every list the client reads; a 404 on any page means the request is gone.
 */
async function wholeHistory(client: MarketplaceApi, loanRequestId: number): Promise<BorrowerLoanHistoryItem[]> {
  const items: BorrowerLoanHistoryItem[] = [];
  for await (const page of client.borrowerLoanHistoryPages(loanRequestId)) items.push(...page.items);
  return items;
}

export function serviceDataSource(client: MarketplaceApi): DataSource<false> {
  return {
    bankingData: (request) => fetched(() => client.fetchBankingData(request.id), { refusedIsMissing: false }),
    providerResult: (request, provider) => fetched(() => client.fetchProviderResult(request.id, provider), { refusedIsMissing: true }),
    borrowerHistory: (request) => fetched(() => wholeHistory(client, request.id), { refusedIsMissing: false }),
  };
}

/** Spend in the purchases table: each purchase with the strategy that asked, subscriptions as rows of their own. */
export function storeSpendLedger(store: Store): SpendLedger {
  return {
    spentSince: (fromMs, nowMs, strategy) =>
      strategy === undefined
        ? store.purchases.spendCents({ fromMs, toMs: nowMs + 1 })
        : store.purchases.strategySpendCents({ strategy, fromMs, toMs: nowMs + 1 }),
    subscribedSince: (provider, fromMs, nowMs) =>
      store.purchases.subscriptions({ fromMs, toMs: nowMs + 1 }).some((row) => row.provider === provider),
    record: ({ atMs, ...purchase }) => store.purchases.record({ ...purchase, boughtAtMs: atMs }),
  };
}
