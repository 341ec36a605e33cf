/**
 * The status report's count of the last 30 days' offers by state, as every surface shows them
 * (store/offer-view.ts): `lendbot status`, the overview and the `lendbot_offers` gauge read this
 * one figure. 30 days: the list window (marketplace 4.1), past which an offer's state no longer moves,
 * and a range of the creation index rather than a count of every offer ever made.
 */
import { offerViewQuery, type RiskLimits } from '../risk/index.js';
import { LIST_WINDOW_MS, OFFER_VIEW_STATES, type OfferViewState, type Store } from '../store/index.js';

export type OfferStateCounts = Record<OfferViewState, number>;

/** How long back the counts reach. */
export const OFFER_COUNT_WINDOW_MS = LIST_WINDOW_MS;

/** How many of the live offers (or the dry run's) made in the last 30 days are in each state as of `nowMs`. */
export function offerStateCounts(store: Pick<Store, 'offers'>, nowMs: number, limits: RiskLimits, dryRun: boolean): OfferStateCounts {
  return store.offers.viewCounts({ dryRun, sinceMs: nowMs - OFFER_COUNT_WINDOW_MS }, offerViewQuery(nowMs, limits));
}

/** "3 placed, 1 accepted, 2 lost" (states with none left out), or "none". */
export function offerStatesText(counts: OfferStateCounts): string {
  const parts = OFFER_VIEW_STATES.filter((state) => counts[state] > 0).map((state) => `${counts[state]} ${state}`);
  return parts.length === 0 ? 'none' : parts.join(', ');
}
