/**
 * Other lenders. Each competitor sees the same features as the investor (and, in some shapes,
 * part of the risk no feature shows) and estimates the default risk with its own error, then
 * prices it: rates track risk with noise, and nobody offers when the rate it would need is above
 * the request's maximum. How many lenders are interested, how well they read risk and how they
 * price is the market shape's (shapes/). The borrower waits
 * a while, then takes the lowest rate on the table if it is at or below its reservation rate
 * (borrower-rules.ts), or, sometimes, cancels.
 */
import type { LoanRequestRecord } from './market-types.js';
import { clamp, roundTo, type Random } from './random.js';
import { CLASSIC_SHAPE } from './shapes/classic.js';
import type { CompetitorBehaviour } from './shapes/market-shape.js';
import { HOUR_MS } from '../clock/time-constants.js';
import { logistic } from '../math/index.js';

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
export function competitorRate(estimatedDefault: number, behaviour: CompetitorBehaviour, random: Random): number {
  return behaviour.base + behaviour.perDefault * estimatedDefault + random.normal(0, behaviour.noiseSd);
}

/** Plans the competition for a request from its own random stream. */
export function planCompetition(
  request: LoanRequestRecord,
  random: Random,
  overrides: { competitorOffers?: number; competitorRates?: readonly number[]; decisionDelayMs?: number; cancel?: boolean } = {},
  behaviour: CompetitorBehaviour = CLASSIC_SHAPE.competitors,
): RequestPlan {
  const decisionAfterMs = overrides.decisionDelayMs ?? Math.round(random.between(2, 30) * HOUR_MS);
  const cancel = overrides.cancel ?? random.chance(behaviour.cancelShare);
  const forcedRates = overrides.competitorRates;
  const forcedCount = forcedRates?.length ?? overrides.competitorOffers;
  const wanted = forcedCount ?? random.poisson(behaviour.lendersByColor[request.borrower.svcColor] ?? 1.5);
  const offers: CompetitorOffer[] = [];
  for (let n = 0; n < wanted; n++) {
    const read = request.truth.observableLogit + behaviour.readsHiddenRisk * request.truth.noise;
    const believed = logistic(read + random.normal(0, behaviour.estimateErrorSd));
    const rate = forcedRates?.[n] ?? competitorRate(1 - believed, behaviour, random);
    // A forced count or rate (control API) always offers; a market competitor walks away from a bad price.
    if (forcedCount === undefined && rate > request.maxInterestRate) continue;
    offers.push({
      lender: `competitor-${random.int(1, 40)}`,
      rate: roundTo(clamp(rate, 0.03, request.maxInterestRate), 4),
      afterMs: Math.round(random.between(0.02, 0.9) * decisionAfterMs),
    });
  }
  return { offers, decisionAfterMs, cancel };
}
