/**
 * What became of a decision, in one word, from what the store knows: the investor's loan for the
 * request (synced from the loan lists), else the offer as every surface shows it
 * (store/offer-view.ts), so the outcome and the offer line of `decisions --id` never disagree.
 * Each is read by its index (loans by loan_request_id, offers by their unique loan_request_id),
 * one request at a time, so listing N decisions costs N look-ups, never a scan of the tables.
 *
 *   skipped     the decision was a skip
 *   not sent    an offer decision with no offer row (the act step never wrote one)
 *   dry run     a simulated offer, never sent
 *   sending, unknown, refused, placed, accepted, rejected, lost, expired   the offer's state
 *   funded, repaid, late, defaulted   the loan's list: current, completed, collection, default
 */
import type { OfferView, OfferViewQuery, Store, StoredLoan } from '../../../store/index.js';

type DecisionOutcome =
  | 'skipped'
  | 'not sent'
  | 'dry run'
  | 'sending'
  | 'unknown'
  | 'refused'
  | 'placed'
  | 'accepted'
  | 'rejected'
  | 'lost'
  | 'expired'
  | 'funded'
  | 'repaid'
  | 'late'
  | 'defaulted';

const LOAN_OUTCOMES: Record<string, DecisionOutcome> = {
  current: 'funded',
  completed: 'repaid',
  collection: 'late',
  default: 'defaulted',
};

/** How to read offers the service never answered: now (in the database's clock) and the guard's settings. */
export type FateSettings = OfferViewQuery;

export interface DecisionFacts {
  /** The offer as every surface shows it. */
  offer: OfferView | undefined;
  loan: StoredLoan | undefined;
  outcome: DecisionOutcome;
}

/** The offer, the loan and the outcome of the decision on one request. */
export function decisionFacts(store: Store, decision: { loanRequestId: number; action: string }, settings: FateSettings): DecisionFacts {
  const record = store.offers.getByRequest(decision.loanRequestId);
  const offer = record === undefined ? undefined : store.offers.view(record, settings);
  const loan = store.account.loanForRequest(decision.loanRequestId);
  return { offer, loan, outcome: outcomeOf(decision.action, offer, loan) };
}

function outcomeOf(action: string, offer: OfferView | undefined, loan: StoredLoan | undefined): DecisionOutcome {
  if (loan !== undefined) {
    // Pending: accepted, unless our own fund call already succeeded (the offer view's reading).
    if (loan.status.toLowerCase() === 'pending') return offer?.state === 'funded' ? 'funded' : 'accepted';
    return LOAN_OUTCOMES[loan.listStatus] ?? 'funded';
  }
  if (action !== 'offer') return 'skipped';
  if (offer === undefined) return 'not sent';
  if (offer.dryRun) return 'dry run';
  return offer.state;
}
