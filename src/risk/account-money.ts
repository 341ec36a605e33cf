/**
 * The account's money as every surface shows it (`lendbot status`, the dashboard's balance card,
 * the agent connector's get_balance, /metrics): the balance from the stored transfer history,
 * what open offers reserve (the guard's own figure; the offer view marks the same offers as
 * reserving, store/offer-view.ts), the cash reserve kept aside, and the free cash the next offer
 * may use.
 */
import type { Cents } from '../domain/index.js';
import type { OfferViewQuery, Store } from '../store/index.js';
import type { RiskLimits } from './risk-limits.js';
import { balanceFromStore } from './store-snapshot.js';

export interface AccountMoney {
  balanceCents: Cents;
  reservedCents: Cents;
  minCashReserveCents: Cents;
  /** balance − reserved − cash reserve: what the next offer may use (negative when over-committed). */
  freeCents: Cents;
}

/** The money as of `nowMs`, for the live offers or a dry run's. */
export function accountMoney(store: Pick<Store, 'offers' | 'account'>, nowMs: number, limits: RiskLimits, dryRun: boolean): AccountMoney {
  const balanceCents = balanceFromStore(store);
  const reservedCents = store.offers.reserved({ nowMs, expiryMs: limits.offerExpiryMs, dryRun, includeManual: limits.reserveManualOffers });
  const minCashReserveCents = limits.minCashReserveCents;
  return { balanceCents, reservedCents, minCashReserveCents, freeCents: balanceCents - reservedCents - minCashReserveCents };
}

/** How the surfaces read offers as of `nowMs` under these limits (store/offer-view.ts). */
export function offerViewQuery(nowMs: number, limits: RiskLimits): OfferViewQuery {
  return { nowMs, expiryMs: limits.offerExpiryMs, includeManual: limits.reserveManualOffers };
}
