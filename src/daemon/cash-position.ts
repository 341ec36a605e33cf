/**
 * The cash a strategy whose hurdle follows cash decides with (docs/strategies.md, "cash_hurdle";
 * src/engine/pricing/cash-hurdle.ts): before a decision, free cash as the guard's balance rule
 * counts it (balance − pending offers − reserve) with the recent demand; after it, the request's
 * total, weighted by its modelled take-up, counted as demand when the strategies would offer on it,
 * guard or not (the cash it would draw). Attached to the pipeline as a provider and a listener.
 */
import { parseCents } from '../domain/index.js';
import { RecentDemand } from '../engine/pricing/cash-hurdle.js';
import type { RiskLimits } from '../risk/index.js';
import type { Store } from '../store/index.js';
import type { BalanceTracker } from './balance-tracker.js';
import type { ContextProvider, DecisionListener } from './decision-hooks.js';

export interface CashPositionDeps {
  store: Store;
  limits: () => RiskLimits;
  balance: Pick<BalanceTracker, 'current'>;
  dryRun: boolean;
}

export function attachCashPosition(
  pipeline: { provide(provider: ContextProvider): void; onDecided(listener: DecisionListener): void },
  deps: CashPositionDeps,
): void {
  const demand = new RecentDemand();
  pipeline.provide(async ({ strategies, nowMs }) => {
    if (!strategies.some((strategy) => strategy.followsCash === true)) return {};
    const limits = deps.limits();
    const balanceCents = await deps.balance.current();
    const reservedCents = deps.store.offers.reserved({
      nowMs,
      expiryMs: limits.offerExpiryMs,
      dryRun: deps.dryRun,
      includeManual: limits.reserveManualOffers,
    });
    return { cash: demand.position(nowMs, balanceCents - reservedCents - limits.minCashReserveCents) };
  });
  pipeline.onDecided((request, _source, _result, { outcome: { decision }, decidedAtMs }) => {
    if (decision.action === 'offer')
      demand.add(decidedAtMs, parseCents(request.total_amount) * (decision.modelled?.acceptProbability ?? 1));
  });
}
