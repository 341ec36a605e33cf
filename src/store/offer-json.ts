/**
 * An offer as JSON for those who read lendbot from outside (`lendbot decisions --json`, the agent
 * connector's list_offers): snake_case, amounts in cents, one shape for both.
 */
import type { OfferRecord } from './offers-repository.js';

export function offerJson(offer: OfferRecord): Record<string, unknown> {
  return {
    loan_request_id: offer.loanRequestId,
    state: offer.state,
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
