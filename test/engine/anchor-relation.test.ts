/**
 * The history anchor's trust (src/engine/market/anchor-relation.ts): learned across borrowers,
 * without outcomes, from whether the rates of their completed loans move with the score. Rates
 * drawn with no regard to risk (the sandbox's `--history-rates uniform`) leave the anchor without
 * weight; rates that follow the score give it clearly positive weight. Fed as the decide step
 * feeds it: every decision whose score read a history, offer or not.
 */
import { describe, expect, it } from 'vitest';
import { reasonText } from '../../src/domain/decision-reason.js';
import { evaluate } from '../../src/engine/index.js';
import { withLearning } from '../../src/engine/market/active-learning.js';
import { emptyRelation, addPair, relationTrust } from '../../src/engine/market/anchor-relation.js';
import { MarketLearning } from '../../src/engine/market/index.js';
import { seededRandom } from '../../src/engine/market/seeded-normals.js';
import { requiredRate } from '../../src/math/index.js';
import { compileText } from './compile-text.js';
import { historyItem, loanRequest } from './fixtures.js';

/** A score that ranks by the service's score (repayment log-odds 1.4 at 600 to 3.4 at 800), learned level, anchored. */
const ANCHORED = compileText(`
data: { banking_data: never, borrower_history: after_filters }
score:
  logistic: { intercept: -4.6, terms: [{ feature: svc_score, weight: 0.01 }] }
  calibration: { method: learned, level_sd: 1, slope_sd: 0.3, history_anchor: { sd: 1 } }
pricing:
  mode: expected_profit
  target_return: 0.08
  recovery: 0.25
  servicing_cost: 0.02
`);
const LOAN = { targetReturn: 0.08, recovery: 0.25, servicingCost: 0.02, fundedCents: 105_000, repaidPrincipalCents: 105_000, terms: 12 };
const logistic = (x: number): number => 1 / (1 + Math.exp(-x));

/** Past rates of a borrower at `svc`: priced by its risk (with some scatter) or drawn evenly, 8 to 50 %. */
type Pricing = 'market' | 'uniform';
function pastRates(svc: number, pricing: Pricing, random: () => number): string[] {
  return [0, 1, 2].map(() => {
    if (pricing === 'uniform') return (0.08 + 0.42 * random()).toFixed(4);
    const defaultLogOdds = 4.6 - 0.01 * svc + (random() - 0.5);
    const rate = requiredRate(0.08, { ...LOAN, probability: 1 - logistic(defaultLogOdds) });
    return Math.min(2, Math.max(0.03, rate)).toFixed(4);
  });
}

/** Decides `requests` requests as the decide step would, then the anchor's weight at one more. */
function weightAfter(requests: number, pricing: Pricing): number {
  const learning = new MarketLearning();
  const random = seededRandom(35);
  const decide = (svc: number) => {
    const request = loanRequest({ borrower: { svc_score: svc } });
    const enrichment = { borrowerHistory: pastRates(svc, pricing, random).map((rate) => historyItem('500.00', rate)) };
    const decision = withLearning(learning, () => evaluate(request, enrichment, ANCHORED));
    learning.calibration.historyRead(decision);
    return decision;
  };
  for (let i = 0; i < requests; i += 1) decide(600 + Math.floor(200 * random()));
  const reason =
    decide(700)
      .reasons.map(reasonText)
      .find((text) => text.startsWith('score history anchor')) ?? '';
  return Number(/weight (\S+)$/.exec(reason)?.[1]);
}

describe('the history anchor’s trust in past prices', () => {
  it('gives the anchor no weight before the relation is seen, nor where past prices carry nothing', () => {
    expect(weightAfter(0, 'market')).toBe(0);
    expect(weightAfter(2, 'market')).toBe(0);
    expect(weightAfter(400, 'uniform')).toBeLessThan(0.05);
  });

  it('gives it clearly positive weight where past prices follow the score', () => {
    expect(weightAfter(400, 'market')).toBeGreaterThan(0.3);
  });

  it('reads the slope’s lower bound: 1 for prices one for one with the score, 0 without spread in the score', () => {
    const exact = emptyRelation();
    for (let x = -4; x <= -1; x += 0.5) addPair(exact, x, x);
    expect(relationTrust(exact)).toBeCloseTo(1, 9);
    const flat = emptyRelation();
    for (let i = 0; i < 10; i += 1) addPair(flat, -2, -2 + (i % 3));
    expect(relationTrust(flat)).toBe(0);
    expect(relationTrust(undefined)).toBe(0);
  });
});
