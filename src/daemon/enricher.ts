/**
 * Buying what a strategy asks for (spec 4.4 banking data, 4.5 provider scores), recording every
 * purchase and its cost, and enforcing the strategy's monthly budget with a spend ledger (the
 * purchases table). Data that cannot be had (404, budget spent) is marked unavailable so the
 * strategy decides without it; an outage is thrown, so the request is decided later instead of
 * being decided blind.
 */
import type { Clock } from '../clock/clock.js';
import type { DataNeed, Enrichment } from '../engine/index.js';
import type { Logger } from '../log/logger.js';
import { ServiceError, type LoanRequest, type MarketplaceApi } from '../service/index.js';
import type { Store } from '../store/index.js';

/** Start of the UTC calendar month holding `ms`. */
export function monthStartMs(ms: number): number {
  const date = new Date(ms);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
}

export class Enricher {
  constructor(private readonly deps: { client: MarketplaceApi; store: Store; clock: Clock; log: Logger }) {}

  /**
   * Buys `need` for `request` into `enrichment` (mutated), unless the month's per-request spend
   * plus its cost would exceed `monthlyBudgetCents`. Returns a reason when it could not.
   */
  async buy(request: LoanRequest, need: DataNeed, enrichment: Enrichment, monthlyBudgetCents: number): Promise<string | undefined> {
    return need.kind === 'banking_data'
      ? this.buyBankingData(request, enrichment)
      : this.buyProvider(request, need, enrichment, monthlyBudgetCents);
  }

  private async buyBankingData(request: LoanRequest, enrichment: Enrichment): Promise<string | undefined> {
    const { client, store, clock } = this.deps;
    try {
      const data = await client.fetchBankingData(request.id);
      store.purchases.record({ loanRequestId: request.id, kind: 'banking_data', costCents: 0, boughtAtMs: clock.now(), ok: true, payload: data });
      enrichment.bankingData = data;
      return undefined;
    } catch (error) {
      if (!(error instanceof ServiceError) || error.code !== 'NOT_FOUND') throw error;
      store.purchases.record({ loanRequestId: request.id, kind: 'banking_data', costCents: 0, boughtAtMs: clock.now(), ok: false, error: error.serviceText ?? error.message });
      enrichment.unavailable = { ...enrichment.unavailable, bankingData: true };
      return 'data banking_data not found';
    }
  }

  private async buyProvider(
    request: LoanRequest,
    need: Extract<DataNeed, { kind: 'provider' }>,
    enrichment: Enrichment,
    monthlyBudgetCents: number,
  ): Promise<string | undefined> {
    const { client, store, clock, log } = this.deps;
    const markUnavailable = (): void => {
      enrichment.unavailable = {
        ...enrichment.unavailable,
        providers: [...(enrichment.unavailable?.providers ?? []), need.provider],
      };
    };
    const now = clock.now();
    // Flat-priced providers cost nothing per request: their subscription is paid either way.
    const costCents = need.pricing === 'per_request' ? need.costCents : 0;
    if (costCents > 0) {
      const spent = store.purchases.spendCents({ fromMs: monthStartMs(now), toMs: now + 1 });
      if (spent + costCents > monthlyBudgetCents) {
        markUnavailable();
        log.info({ loanRequestId: request.id, provider: need.provider, spent, monthlyBudgetCents }, 'data budget spent');
        return `data budget ${(spent / 100).toFixed(2)} + ${(costCents / 100).toFixed(2)} > ${(monthlyBudgetCents / 100).toFixed(2)} for ${need.provider}`;
      }
    }
    try {
      const result = await client.fetchProviderResult(request.id, need.provider);
      store.purchases.record({ loanRequestId: request.id, kind: 'provider', provider: need.provider, costCents, boughtAtMs: now, ok: true, payload: result });
      enrichment.providerResults = { ...enrichment.providerResults, [need.provider]: result };
      return undefined;
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      // A call that reached the service may be billed even when it failed: count it.
      const billed = error.status !== undefined && error.status >= 500 ? costCents : 0;
      store.purchases.record({ loanRequestId: request.id, kind: 'provider', provider: need.provider, costCents: billed, boughtAtMs: now, ok: false, error: error.serviceText ?? error.message });
      if (error.code === 'NOT_FOUND' || error.code === 'RULE_REFUSED') {
        markUnavailable();
        return `data ${need.provider} unavailable: ${error.serviceText ?? error.code}`;
      }
      throw error;
    }
  }
}
