/**
 * The status report's count of offers by state, as every surface shows them
 * (store/offer-view.ts): `lendbot status`, the dashboard's overview and the `lendbot_offers`
 * gauge read this one figure.
 */
import { offerViewQuery, type RiskLimits } from '../risk/index.js';
import { OFFER_VIEW_STATES, type OfferViewState, type Store } from '../store/index.js';

export type OfferStateCounts = Record<OfferViewState, number>;

/** How many of the live offers (or the dry run's) are in each state as of `nowMs`. */
export function offerStateCounts(store: Pick<Store, 'offers'>, nowMs: number, limits: RiskLimits, dryRun: boolean): OfferStateCounts {
  return store.offers.viewCounts({ dryRun }, offerViewQuery(nowMs, limits));
}

/** "3 placed, 1 accepted, 2 lost" (states with none left out), or "none". */
export function offerStatesText(counts: OfferStateCounts): string {
  const parts = OFFER_VIEW_STATES.filter((state) => counts[state] > 0).map((state) => `${counts[state]} ${state}`);
  return parts.length === 0 ? 'none' : parts.join(', ');
}
