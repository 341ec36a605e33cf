/**
 * An offer as JSON for those who read lendbot from outside (`lendbot decisions --json`, the agent
 * connector's list_offers): snake_case, amounts in cents, one shape for both, the state as every
 * surface shows it (offer-view.ts).
 */
import type { OfferView } from './offer-view.js';

export function offerJson(offer: OfferView): Record<string, unknown> {
  return {
    loan_request_id: offer.loanRequestId,
    state: offer.state,
    reserving: offer.reserving,
    recorded_state: offer.recordedState,
    rate: offer.rate,
    automate_fund: offer.automateFund,
    total_amount_cents: offer.totalAmountCents,
    risk_level: offer.riskLevel,
    service_offer_id: offer.serviceOfferId,
    service_text: offer.serviceText,
    created_at: offer.createdAt,
    updated_at: offer.updatedAt,
    dry_run: offer.dryRun,
  };
}
