/**
 * The data bought for a request, from the purchases table, as the decide step's source: what
 * explaining a decision reads (the dashboard's explanation, the agent connector's explain). It
 * never buys; what was not bought is answered as not had, and named in `missing` when given.
 */
import type { DataSource } from '../engine/index.js';
import type { BankingData, BorrowerLoanHistoryItem, ProviderResult } from '../domain/index.js';
import type { Store } from '../store/index.js';

export function purchasedData(store: Store, loanRequestId: number, missing?: Set<string>): DataSource<true> {
  const bought = store.purchases.forRequest(loanRequestId).filter((purchase) => purchase.ok && purchase.payloadJson !== null);
  const payload = (kind: string, provider?: string): unknown => {
    const found = bought.findLast((purchase) => purchase.kind === kind && (provider === undefined || purchase.provider === provider));
    return found === undefined || found.payloadJson === null ? undefined : JSON.parse(found.payloadJson);
  };
  const notBought = (what: string) => {
    missing?.add(what);
    return { ok: false as const, detail: 'not bought for this request (explaining never buys)' };
  };
  return {
    bankingData: () => {
      const value = payload('banking_data');
      return value === undefined ? notBought('banking data') : { ok: true, value: value as BankingData };
    },
    providerResult: (_request, provider) => {
      const value = payload('provider', provider);
      return value === undefined ? notBought(`provider ${provider}`) : { ok: true, value: value as ProviderResult };
    },
    borrowerHistory: () => {
      const value = payload('borrower_history');
      return value === undefined ? notBought('borrower history') : { ok: true, value: value as BorrowerLoanHistoryItem[] };
    },
  };
}
