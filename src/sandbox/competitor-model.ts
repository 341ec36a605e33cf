/**
 * Other lenders. Each competitor sees the same features as the investor and estimates the
 * default risk with its own error, then prices it: rates track risk with noise, and nobody offers
 * when the rate it would need is above the request's maximum. The borrower waits a while, then
 * accepts the lowest rate on the table (or, sometimes, cancels).
 */
import type { LoanRequestRecord } from './market-types.js';
import { clamp, roundTo, type Random } from './random.js';

const HOUR_MS = 3_600_000;

/** Mean number of competing lenders interested, by risk level. */
const COMPETITION_BY_COLOR = [2.6, 2.1, 1.5, 1.2, 1.4] as const;
/** Share of requests the borrower cancels before deciding. */
export const CANCEL_SHARE = 0.04;

export interface CompetitorOffer {
  lender: string;
  rate: number;
  /** Delay after the request was created. */
  afterMs: number;
}

export interface RequestPlan {
  offers: CompetitorOffer[];
  /** When the borrower chooses, after creation. */
  decisionAfterMs: number;
  cancel: boolean;
}

/** The rate a competitor asks for a default probability it believes in. */
export function competitorRate(estimatedDefault: number, random: Random): number {
  return 0.07 + 1.25 * estimatedDefault + random.normal(0, 0.025);
}

/** Plans the competition for a request from its own random stream. */
export function planCompetition(
  request: LoanRequestRecord,
  random: Random,
  overrides: { competitorOffers?: number; decisionDelayMs?: number; cancel?: boolean } = {},
): RequestPlan {
  const decisionAfterMs = overrides.decisionDelayMs ?? Math.round(random.between(2, 30) * HOUR_MS);
  const cancel = overrides.cancel ?? random.chance(CANCEL_SHARE);
  const wanted = overrides.competitorOffers ?? random.poisson(COMPETITION_BY_COLOR[request.borrower.svcColor] ?? 1.5);
  const offers: CompetitorOffer[] = [];
  for (let n = 0; n < wanted; n++) {
    const believed = 1 / (1 + Math.exp(-(request.truth.observableLogit + random.normal(0, 0.6))));
    const rate = competitorRate(1 - believed, random);
    // A forced count (control API) always offers; a market competitor walks away from a bad price.
    if (overrides.competitorOffers === undefined && rate > request.maxInterestRate) continue;
    offers.push({
      lender: `competitor-${random.int(1, 40)}`,
      rate: roundTo(clamp(rate, 0.03, request.maxInterestRate), 4),
      afterMs: Math.round(random.between(0.02, 0.9) * decisionAfterMs),
    });
  }
  return { offers, decisionAfterMs, cancel };
}
