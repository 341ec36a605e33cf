/**
 * The daemon's two seams of the decide step (src/engine/decide-step.ts): data comes from the
 * service (spec 4.4 banking data, 4.5 provider scores) and spend is recorded in the purchases
 * table, which the monthly budget reads back.
 */
import type { DataSource, Fetched, SpendLedger } from '../engine/index.js';
import { ServiceError, type MarketplaceApi } from '../service/index.js';
import type { Store } from '../store/index.js';

/** A 404 is "not there"; a provider's 400 too (it does not know the request). Anything else is an outage. */
async function fetched<T>(call: () => Promise<T>, options: { refusedIsMissing: boolean }): Promise<Fetched<T>> {
  try {
    return { ok: true, value: await call() };
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    const detail = error.serviceText ?? error.code;
    if (error.code === 'NOT_FOUND' || (options.refusedIsMissing && error.code === 'RULE_REFUSED')) return { ok: false, detail };
    // A call the service answered with a 5xx may be billed even though it failed.
    return { ok: false, detail: error.serviceText ?? error.message, billed: error.status !== undefined && error.status >= 500, outage: error };
  }
}

export function serviceDataSource(client: MarketplaceApi): DataSource<false> {
  return {
    bankingData: (request) => fetched(() => client.fetchBankingData(request.id), { refusedIsMissing: false }),
    providerResult: (request, provider) => fetched(() => client.fetchProviderResult(request.id, provider), { refusedIsMissing: true }),
  };
}

export function storeSpendLedger(store: Store): SpendLedger {
  return {
    spentSince: (fromMs, nowMs) => store.purchases.spendCents({ fromMs, toMs: nowMs + 1 }),
    record: (purchase) =>
      store.purchases.record({
        loanRequestId: purchase.loanRequestId,
        kind: purchase.kind,
        provider: purchase.provider,
        costCents: purchase.costCents,
        boughtAtMs: purchase.atMs,
        ok: purchase.ok,
        error: purchase.error,
        payload: purchase.payload,
      }),
  };
}
