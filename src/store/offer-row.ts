/**
 * A row of the offers table and the offer it holds: shared by the repository and the lender's
 * view of offers (offer-view.ts), which would otherwise import each other.
 */
import type { OfferRecord, OfferState } from './offers-repository.js';

/** A row of the offers table as SQLite returns it. */
export interface OfferRow {
  id: number;
  loan_request_id: number;
  rate: number;
  automate_fund: 0 | 1;
  total_amount_cents: number;
  risk_level: number;
  borrower_id: number;
  state: OfferState;
  service_offer_id: number | null;
  service_text: string | null;
  offer_json: string | null;
  created_at: string;
  updated_at: string;
  dry_run: 0 | 1;
}

/** The offer a row holds, in the names and types the rest of lendbot uses. */
export function offerFromRow(row: OfferRow): OfferRecord {
  return {
    id: row.id,
    loanRequestId: row.loan_request_id,
    rate: row.rate,
    automateFund: row.automate_fund === 1,
    totalAmountCents: row.total_amount_cents,
    riskLevel: row.risk_level,
    borrowerId: row.borrower_id,
    state: row.state,
    serviceOfferId: row.service_offer_id,
    serviceText: row.service_text,
    offerJson: row.offer_json,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    dryRun: row.dry_run === 1,
  };
}
