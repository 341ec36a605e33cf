import { describe, expect, it } from 'vitest';
import { takeUpProbability } from '../../src/engine/index.js';
import { Market, MARKET_SHAPES, outcomeOf, runHeadlessMarket } from '../../src/sandbox/index.js';
import { DAY, HOUR } from './sandbox-fixture.js';

const START = Date.parse('2026-01-01T00:00:00Z');

function quietMarket(): Market {
  return new Market({ seed: 3, startMs: START, arrivalsPerHour: 0, initialBalanceCents: 10_000_000 });
}

// The classic shape's curve: take-up is one half at position 0.65, so with a take-up draw of one
// half the borrower takes any rate below 0.03 + 0.65 × (0.6 − 0.03) = 0.4005 on a 0.6 maximum.
const HALF_WILLING = { takeUp: 0.5, maxInterestRate: 0.6, hasFundingResource: true, decisionDelayMs: 2 * HOUR } as const;

describe('rate-sensitive borrowers', () => {
  it('walk away from an expensive only offer, then take a cheaper one arriving before the window closes', () => {
    const market = quietMarket();
    const request = market.createLoanRequest({ ...HALF_WILLING, competitorRates: [0.55] });
    market.advanceTo(START + 3 * HOUR);
    const competitor = market.offers.get(request.offerIds[0] ?? 0);
    expect(competitor).toMatchObject({ lender: expect.stringMatching(/^competitor-/), rate: 0.55, status: 'rejected' });
    expect(request).toMatchObject({ status: 'open', refusedRate: 0.55, bestCompetingRate: 0.55 });

    const cheap = market.makeOffer(request.id, 0.2, true);
    if (!cheap.ok) throw new Error(cheap.refusal.text);
    // The borrower looks again 12 hours after walking away.
    market.advanceTo(START + 13 * HOUR);
    expect(cheap.value.status).toBe('pending');
    market.advanceTo(START + 15 * HOUR);
    expect(cheap.value.status).toBe('accepted');
    expect(request.status).toBe('signed');
    market.advanceTo(START + 800 * DAY);
    expect(outcomeOf(market, request.id)).toMatchObject({ funded_rate: 0.2, best_competing_rate: 0.55 });
  });

  it('refuse the investor’s offer above their take-up and the request closes unfunded; a cheaper offer to the same borrower is taken', () => {
    const market = quietMarket();
    const dear = market.createLoanRequest({ ...HALF_WILLING, competitorOffers: 0 });
    const cheap = market.createLoanRequest({ ...HALF_WILLING, competitorOffers: 0 });
    const refused = market.makeOffer(dear.id, 0.41, true);
    const taken = market.makeOffer(cheap.id, 0.39, true);
    if (!refused.ok || !taken.ok) throw new Error('offer refused');
    market.advanceTo(START + 31 * DAY);
    expect(refused.value.status).toBe('rejected');
    expect(dear).toMatchObject({ status: 'expired', refusedRate: 0.41, loanId: null });
    expect(taken.value.status).toBe('accepted');
    expect(cheap.status).toBe('signed');
    // Nobody else offered: the recording says so, and says how the borrower would have repaid.
    expect(outcomeOf(market, dear.id)).toMatchObject({ status: 'unfunded', best_competing_rate: null, if_funded: expect.any(Object) });
  });

  it('take any offer with takeUp 1 (the control API default) and none with takeUp 0', () => {
    const market = quietMarket();
    const eager = market.createLoanRequest({ ...HALF_WILLING, takeUp: 1, competitorOffers: 0 });
    const never = market.createLoanRequest({ ...HALF_WILLING, takeUp: 0, competitorRates: [0.031] });
    const atMax = market.makeOffer(eager.id, 0.6, true);
    market.advanceTo(START + 31 * DAY);
    expect(atMax.ok && atMax.value.status).toBe('accepted');
    expect(never).toMatchObject({ status: 'expired', refusedRate: 0.031 });
  });

  it('take the lowest offer exactly when it is at or below their reservation rate, in every shape', () => {
    for (const shape of Object.values(MARKET_SHAPES)) {
      const market = runHeadlessMarket({ seed: 21, requests: 2000, shape: shape.name });
      // Borrowers who decided on a table of competing offers: the lowest is the best competing rate.
      const decided = [...market.requests.values()].filter(
        (r) => r.bestCompetingRate !== null && r.status !== 'canceled' && r.borrower.hasFundingResource,
      );
      expect(decided.length, shape.name).toBeGreaterThan(800);
      for (const r of decided) {
        const acceptable = (r.bestCompetingRate ?? 0) <= r.reservationRate;
        expect(r.refusedRate === null, `${shape.name} request ${r.id}`).toBe(acceptable);
        if (!acceptable) expect(r.refusedRate).toBe(r.bestCompetingRate);
        expect(r.reservationRate).toBeLessThanOrEqual(r.maxInterestRate);
      }
      expect(
        decided.some((r) => r.refusedRate !== null),
        shape.name,
      ).toBe(true);
    }
  });

  it('walk away as often as the take-up curve says, in the shapes whose borrowers follow one', () => {
    for (const shape of Object.values(MARKET_SHAPES)) {
      const rule = shape.borrowers;
      if (rule.kind !== 'take-up-curve') continue;
      const market = runHeadlessMarket({ seed: 21, requests: 2000, shape: shape.name });
      const decided = [...market.requests.values()].filter(
        (r) => r.bestCompetingRate !== null && r.status !== 'canceled' && r.borrower.hasFundingResource,
      );
      const refusals = decided.filter((r) => r.refusedRate !== null);
      const expected = decided.reduce((sum, r) => sum + 1 - takeUpProbability(r.bestCompetingRate ?? 0, r.maxInterestRate, rule), 0);
      // Binomial: the standard deviation of the count is below √expected.
      expect(Math.abs(refusals.length - expected), shape.name).toBeLessThan(3.5 * Math.sqrt(expected));
    }
  });
});
