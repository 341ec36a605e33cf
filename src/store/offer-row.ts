/**
 * An offer, its states, and the row of the offers table that holds it: shared by the repository
 * and the lender's view of offers (offer-view.ts), which would otherwise import each other.
 */
import type { Cents } from '../domain/index.js';

export const OFFER_STATES = ['intent', 'placed', 'refused', 'unknown', 'accepted', 'funded', 'rejected', 'expired'] as const;
export type OfferState = (typeof OFFER_STATES)[number];

export interface OfferRecord {
  id: number;
  loanRequestId: number;
  rate: number;
  automateFund: boolean;
  totalAmountCents: Cents;
  riskLevel: number;
  borrowerId: number;
  state: OfferState;
  serviceOfferId: number | null;
  /** The service's refusal text, or the error of an ambiguous attempt. */
  serviceText: string | null;
  offerJson: string | null;
  createdAt: string;
  updatedAt: string;
  dryRun: boolean;
}

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
