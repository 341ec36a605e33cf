/**
 * What became of a decision, in one word, from what the store knows: the investor's loan for the
 * request (synced from the loan lists), else the offer row and its fate (store/offer-fate.ts).
 * Each is read by its index (loans by loan_request_id, offers by their unique loan_request_id),
 * one request at a time, so listing N decisions costs N look-ups, never a scan of the tables.
 *
 *   skipped     the decision was a skip
 *   not sent    an offer decision with no offer row (the act step never wrote one)
 *   dry run     a simulated offer, never sent
 *   sending     the intent is written, the POST not answered yet
 *   unknown     the POST may or may not have reached the service; reconciliation settles it
 *   refused     the service answered 400
 *   offered     the offer is out, nobody has answered yet (fate pending)
 *   accepted    the borrower took it; no loan synced yet (or the loan is still pending)
 *   rejected, lost, expired   the offer's fate (offer-fate.ts)
 *   funded, repaid, late, defaulted   the loan's list: current, completed, collection, default
 */
import type { OfferRecord, Store, StoredLoan } from '../../../store/index.js';

export const DECISION_OUTCOMES = [
  'skipped', 'not sent', 'dry run', 'sending', 'unknown', 'refused', 'offered', 'accepted', 'rejected',
  'lost', 'expired', 'funded', 'repaid', 'late', 'defaulted',
] as const;
export type DecisionOutcome = (typeof DECISION_OUTCOMES)[number];

const LOAN_OUTCOMES: Record<string, DecisionOutcome> = {
  current: 'funded',
  completed: 'repaid',
  collection: 'late',
  default: 'defaulted',
};

/** How to read offers the service never answered: now (in the database's clock) and risk.offer_expiry_hours. */
export interface FateSettings {
  nowMs: number;
  expiryMs: number;
}

export interface DecisionFacts {
  offer: OfferRecord | undefined;
  loan: StoredLoan | undefined;
  outcome: DecisionOutcome;
}

/** The offer, the loan and the outcome of the decision on one request. */
export function decisionFacts(store: Store, decision: { loanRequestId: number; action: string }, settings: FateSettings): DecisionFacts {
  const offer = store.offers.getByRequest(decision.loanRequestId);
  const loan = store.account.loanForRequest(decision.loanRequestId);
  return { offer, loan, outcome: outcomeOf(store, decision.action, offer, loan, settings) };
}

function outcomeOf(
  store: Store,
  action: string,
  offer: OfferRecord | undefined,
  loan: StoredLoan | undefined,
  settings: FateSettings,
): DecisionOutcome {
  if (loan !== undefined) {
    if (loan.status.toLowerCase() === 'pending') return 'accepted';
    return LOAN_OUTCOMES[loan.listStatus] ?? 'funded';
  }
  if (action !== 'offer') return 'skipped';
  if (offer === undefined) return 'not sent';
  if (offer.dryRun) return 'dry run';
  if (offer.state === 'intent') return 'sending';
  if (offer.state === 'refused') return 'refused';
  if (offer.state === 'funded') return 'funded';
  const fate = store.offers.fate(offer, settings);
  // No fate: an attempt the service never knowingly took (unknown, or given up on).
  if (fate === undefined) return 'unknown';
  return fate.fate === 'pending' ? 'offered' : fate.fate;
}
