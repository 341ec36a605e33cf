/**
 * Building the guard's snapshot from the store, for the live daemon. The backtester builds its
 * own snapshot from a simulated ledger and calls the same checkOffer.
 */
import { existsSync } from 'node:fs';
import { balanceFromTransfers, type Cents } from '../domain/index.js';
import type { Store } from '../store/index.js';
import type { GuardSnapshot } from './check-offer.js';
import type { RiskLimits } from './risk-limits.js';

export interface SnapshotOptions {
  /** Count the dry run's simulated offers instead of live ones. */
  dryRun?: boolean | undefined;
}

/** The snapshot as of `nowMs`: reservations, exposure, today's totals and the kill switch file. */
export function snapshotFromStore(
  store: Pick<Store, 'offers' | 'exposure'>,
  balanceCents: Cents,
  nowMs: number,
  limits: RiskLimits,
  options: SnapshotOptions = {},
): GuardSnapshot {
  const scope = { nowMs, expiryMs: limits.offerExpiryMs, dryRun: options.dryRun ?? false };
  const exposure = store.exposure.summary(scope);
  const today = store.offers.dailyTotals(scope);
  return {
    balanceCents,
    reservedCents: store.offers.reserved({ ...scope, includeManual: limits.reserveManualOffers }),
    exposureCents: exposure.totalCents,
    exposureByBorrowerCents: (borrowerId) => exposure.byBorrowerCents.get(borrowerId) ?? 0,
    exposureByRiskLevelCents: { ...exposure.byRiskLevelCents },
    offersToday: today.offers,
    amountTodayCents: today.amountCents,
    killSwitchOn: limits.killSwitchFile !== undefined && existsSync(limits.killSwitchFile),
  };
}

/**
 * The usable balance from the last synced transfer history: processed transfers plus pending
 * outgoing ones (already committed); pending incoming money is not counted until processed, and
 * failed transfers count for nothing (src/domain/balance.ts).
 */
export function balanceFromStore(store: Pick<Store, 'account'>): Cents {
  return balanceFromTransfers(store.account.transferGroups()).availableCents;
}
