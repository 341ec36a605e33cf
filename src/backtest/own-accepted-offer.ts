/**
 * Our own offer a borrower accepted, as a recording from the daemon's store tells it
 * (docs/recording-format.md, `offer`): the loan is ours, so its `funded_rate` is our own rate,
 * not a competitor's to beat. What that says about a replayed offer at `rate`:
 *
 * - at or below the accepted rate: the borrower took that rate, so a cheaper (or equal) offer is
 *   taken too. No curve, no draw: judged by what happened.
 * - above it: unknown (the borrower may have had a competing offer in between). The curve judges
 *   it, conditioned on the acceptance at the lower rate, or a borrower world does.
 *
 * An offer that was rejected, lost or expired says the borrower took something cheaper or
 * nothing; its line has no repayment to judge a loan by, so it changes nothing here.
 */
import type { LineWithoutData } from '../recording/index.js';

const FUNDED = new Set(['completed', 'current', 'collection', 'default']);
/** Rates are written as numbers; the loan's rate and the offer's may differ by a float's last digit. */
const SAME_RATE = 1e-9;

/** The rate of our own offer that became this line's loan, or undefined when the line records none. */
export function ownAcceptedRate(line: LineWithoutData): number | undefined {
  const { offer, outcome } = line;
  if (offer?.status !== 'accepted' || outcome === undefined || !FUNDED.has(outcome.status)) return undefined;
  // A line naming the competition (a simulator's) is judged by it, as before.
  if (outcome.best_competing_rate !== undefined) return undefined;
  // A funded rate other than our offer's: somebody else's loan (or a recording that says so).
  if (outcome.funded_rate !== undefined && Math.abs(outcome.funded_rate - offer.rate) > SAME_RATE) return undefined;
  return offer.rate;
}
