import { describe, expect, it } from 'vitest';
import {
  acceptProbability,
  DEFAULT_MARKET_RESPONSE,
  expectedAcceptProbability,
  marketResponse,
  ratePosition,
  takeUpAt,
  takeUpProbability,
  type MarketResponse,
} from '../../src/engine/index.js';
import { expectedAcceptCurve } from '../../src/engine/market-response.js';
import { logistic } from '../../src/math/index.js';
import { compileText } from './compile-text.js';
import { loanRequest } from './fixtures.js';

/** A market where better borrowers walk away sooner: low midpoint and a steep curve at low pd. */
const SHOPPERS: MarketResponse = marketResponse({
  takeUp: { midpoint: 0.3, steepness: 12, midpointPerDefault: 2, steepnessPerDefault: -30 },
});

describe('take-up that depends on the borrower', () => {
  it('moves midpoint and steepness with the default probability, steepness never below 0', () => {
    expect(takeUpAt(SHOPPERS.takeUp, 0)).toEqual({ midpoint: 0.3, steepness: 12 });
    expect(takeUpAt(SHOPPERS.takeUp, 0.2)).toEqual({ midpoint: 0.7, steepness: 6 });
    expect(takeUpAt(SHOPPERS.takeUp, 0.5).steepness).toBe(0);
    // Half the way to the maximum: a good borrower mostly walks away, a poor one mostly takes it.
    const good = takeUpProbability(0.195, 0.36, SHOPPERS.takeUp, 0.02);
    const poor = takeUpProbability(0.195, 0.36, SHOPPERS.takeUp, 0.3);
    expect(good).toBeLessThan(0.2);
    expect(poor).toBeGreaterThan(0.5);
  });

  it('without per-default terms gives the same numbers as before to the last bit, whatever the default probability', () => {
    const curve = { midpoint: 0.7, steepness: 6 };
    const zeros = { ...curve, midpointPerDefault: 0, steepnessPerDefault: 0 };
    for (const pd of [0, 0.05, 0.3, 0.9]) {
      for (const rate of [0.03, 0.11, 0.2417, 0.36]) {
        // Today's arithmetic, written out: the logistic of −steepness × (position − midpoint).
        const before = logistic(-6 * (ratePosition(rate, 0.36) - 0.7));
        expect(takeUpProbability(rate, 0.36, curve, pd)).toBe(before);
        expect(takeUpProbability(rate, 0.36, zeros, pd)).toBe(before);
        expect(takeUpProbability(rate, 0.36, curve)).toBe(before);
      }
    }
  });

  it('enters the expected acceptance and the recorded-competition acceptance with the borrower’s default probability', () => {
    const pd = 0.05;
    const withoutCompetition = marketResponse({ takeUp: SHOPPERS.takeUp, competition: { share: 0 } });
    expect(expectedAcceptProbability(0.2, 0.36, pd, withoutCompetition)).toBe(takeUpProbability(0.2, 0.36, SHOPPERS.takeUp, pd));
    expect(expectedAcceptCurve(0.36, pd, withoutCompetition)(0.2)).toBe(takeUpProbability(0.2, 0.36, SHOPPERS.takeUp, pd));
    expect(acceptProbability(0.2, 0.36, { kind: 'none' }, SHOPPERS, 'hard', pd)).toBe(takeUpProbability(0.2, 0.36, SHOPPERS.takeUp, pd));
    // Refused a competitor at 0.25: takes ours at 0.2 with the take-up that 0.25 lacked.
    const at = (rate: number): number => takeUpProbability(rate, 0.36, SHOPPERS.takeUp, pd);
    expect(acceptProbability(0.2, 0.36, { kind: 'refused', rate: 0.25 }, SHOPPERS, 'hard', pd)).toBeCloseTo(
      (at(0.2) - at(0.25)) / (1 - at(0.25)),
      12,
    );
    // The default market is borrower-blind: the default probability changes nothing.
    expect(acceptProbability(0.2, 0.36, { kind: 'none' }, DEFAULT_MARKET_RESPONSE, 'hard', 0.4)).toBe(
      acceptProbability(0.2, 0.36, { kind: 'none' }, DEFAULT_MARKET_RESPONSE, 'hard'),
    );
  });

  it('is written in a strategy as take_up.midpoint_per_default and steepness_per_default, and priced for: a rate only poor borrowers accept is seen as such', () => {
    const pricing = (takeUp: string): string =>
      `  mode: expected_profit\n  target_return: 0.05\n  market:\n    competition: { share: 0 }\n    take_up: ${takeUp}\n`;
    const logit = (p: number): number => Math.log(p / (1 - p));
    const strategy = (p: number, takeUp: string) =>
      compileText(
        `data: { banking_data: never }\nscore:\n  logistic: { intercept: ${logit(p)}, terms: [{ feature: loan_terms, weight: 0 }] }\npricing:\n${pricing(takeUp)}`,
      );
    const request = loanRequest({ max_interest_rate: 0.36 });
    const rate = (p: number, takeUp: string): number => {
      const decision = strategy(p, takeUp).evaluate(request, {});
      if (decision.action !== 'offer') throw new Error(`expected an offer, got ${decision.reasons.join('; ')}`);
      return decision.rate ?? Number.NaN;
    };
    const blind = '{ midpoint: 0.7, steepness: 6 }';
    const shoppers = '{ midpoint: 0.3, steepness: 12, midpoint_per_default: 2, steepness_per_default: -30 }';
    // A good borrower (pd 0.03) is priced far lower once the curve knows it walks away sooner;
    // the borrower-blind curve prices it as it prices everyone.
    expect(rate(0.97, shoppers)).toBeLessThan(rate(0.97, blind) - 0.05);
    // The offer's modelled acceptance is the borrower's own.
    const decision = strategy(0.97, shoppers).evaluate(request, {});
    if (decision.action !== 'offer') throw new Error('expected an offer');
    expect(decision.modelled?.acceptProbability).toBeCloseTo(
      takeUpProbability(decision.rate ?? Number.NaN, 0.36, SHOPPERS.takeUp, 1 - 0.97),
      9,
    );
  });
});
