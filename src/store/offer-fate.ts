/**
 * What became of one of our offers, as precisely as the service lets us see it. The spec shows
 * no offer after the make_offer answer (no endpoint reads an offer; its transitions are "not
 * shown"), so the daemon has two signals: a loan of ours for the request (acceptance, seen by
 * the account sync) and whether the request is still in the list (the poll). The list holds
 * requests "issued within the last 30 days" (marketplace 4.1) that are open; a request leaves it when
 * someone's offer is taken, when the borrower cancels, or when its 30 days are over. Neither the
 * request (2.2) nor any other resource shows who funded it or at what rate, so a lost offer
 * never carries the winning rate.
 *
 *   accepted  a loan of ours appeared (state accepted or funded)
 *   rejected  the service said so (the make_offer answer, or a state set from it)
 *   lost      the request left the list without a loan of ours while our offer was out:
 *             taken by another lender, canceled, or closed
 *   expired   our offer's life (risk.offer_expiry_hours) ended with the request still listed, or
 *             (never watched leaving) with no answer
 *   pending   none of these yet
 */

/** Marketplace 4.1 and 8: the list holds requests issued within the last 30 days. */
export const LIST_WINDOW_MS = 30 * 86_400_000;
/**
 * A request listed this close to its 30 days' end and gone after it is taken to have aged out
 * unfunded; one last listed earlier may have been taken in the gap (the daemon was down).
 */
const AGED_OUT_TOLERANCE_MS = 3_600_000;

type OwnOfferFate = 'accepted' | 'rejected' | 'lost' | 'expired' | 'pending';

/** What the poll saw of the request while our offer was out (columns of migration 7). */
export interface OfferListing {
  /** The last scan that listed the request (ISO; rewritten at most every 10 minutes), or null. */
  listedUntil: string | null;
  /** The first scan that should have listed it and did not (ISO); null while listed. */
  leftListAt: string | null;
}

export interface OfferFateInput {
  state: string;
  /** offer_status of the make_offer answer, when stored. */
  answeredStatus: string | null;
  createdAt: string;
  listing: OfferListing;
  /** The request's `created` (marketplace 2.2), epoch ms; null when unknown. */
  requestCreatedMs: number | null;
  nowMs: number;
  /** How long an offer is taken to stay open (risk.offer_expiry_hours). */
  expiryMs: number;
}

export interface OfferFate extends OfferListing {
  fate: OwnOfferFate;
  /**
   * The request left the list at the end of its 30 days and was watched until then: nobody
   * funded it while we watched.
   */
  agedOut: boolean;
}

/** The fate of a placed offer (one the service took); see the table above. */
export function offerFate(input: OfferFateInput): OfferFate {
  const { listing } = input;
  const agedOut = leftByAge(listing, input.requestCreatedMs);
  const fate = (value: OwnOfferFate): OfferFate => ({ fate: value, agedOut, ...listing });
  if (input.state === 'accepted' || input.state === 'funded') return fate('accepted');
  if (input.state === 'rejected' || input.answeredStatus?.toLowerCase() === 'rejected') return fate('rejected');
  if (input.state === 'expired') return fate('expired');
  const lifeEndMs = Date.parse(input.createdAt) + input.expiryMs;
  if (listing.leftListAt !== null) {
    // Seen listed after our offer's life ended: the borrower let it run out; otherwise the
    // request left while our offer may still have been on the table.
    const listedAfterLife = listing.listedUntil !== null && Date.parse(listing.listedUntil) > lifeEndMs;
    return fate(listedAfterLife ? 'expired' : 'lost');
  }
  return fate(input.nowMs > lifeEndMs ? 'expired' : 'pending');
}

function leftByAge(listing: OfferListing, requestCreatedMs: number | null): boolean {
  if (requestCreatedMs === null || listing.leftListAt === null || listing.listedUntil === null) return false;
  const windowEndMs = requestCreatedMs + LIST_WINDOW_MS;
  return Date.parse(listing.leftListAt) >= windowEndMs && Date.parse(listing.listedUntil) >= windowEndMs - AGED_OUT_TOLERANCE_MS;
}
