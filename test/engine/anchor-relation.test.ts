/**
 * The history anchor's trust (src/engine/market/anchor-relation.ts): learned across borrowers,
 * without outcomes, from whether the rates of their completed loans move with the score. Rates
 * drawn with no regard to risk (the sandbox's `--history-rates uniform`) leave the anchor without
 * weight, and so do such rates under caps that rise with the risk level (the relation is read
 * within each level); rates that follow the score give it clearly positive weight. Fed as the
 * decide step feeds it: every decision whose score read a history, offer or not, with its level.
 */
import { describe, expect, it } from 'vitest';
import { reasonText } from '../../src/domain/decision-reason.js';
import { evaluate } from '../../src/engine/index.js';
import { withLearning } from '../../src/engine/market/active-learning.js';
import {
  addPair,
  emptyRelation,
  relationSlope,
  relationTrust,
  tQuantile975,
  type AnchorRelation,
} from '../../src/engine/market/anchor-relation.js';
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

/**
 * Past rates of a borrower at `svc`: priced by its risk (with some scatter), drawn evenly from 8 to
 * 50 %, or drawn evenly from 8 % to its risk level's cap (`capped`, the sandbox's uniform draw).
 */
type Pricing = 'market' | 'uniform' | 'capped';
/** The risk level's cap on rates, low to high risk. */
const CAPS = [0.2, 0.35, 0.5];
/** A borrower's risk level from its score: the riskier a third, the higher the level (and its cap). */
const levelOf = (svc: number): number => (svc >= 734 ? 0 : svc >= 667 ? 1 : 2);
function pastRates(svc: number, pricing: Pricing, random: () => number): string[] {
  return [0, 1, 2].map(() => {
    if (pricing === 'uniform') return (0.08 + 0.42 * random()).toFixed(4);
    if (pricing === 'capped') return (0.08 + ((CAPS[levelOf(svc)] ?? 0.5) - 0.08) * random()).toFixed(4);
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
    const request = loanRequest({ borrower: { svc_score: svc }, borrower_card_color: levelOf(svc) });
    const enrichment = { borrowerHistory: pastRates(svc, pricing, random).map((rate) => historyItem('500.00', rate)) };
    const decision = withLearning(learning, () => evaluate(request, enrichment, ANCHORED));
    learning.calibration.historyRead(decision, request.borrower_card_color);
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

  it('gives no weight to noise under caps that rise with the risk level: the relation is read within each level', () => {
    // Across levels such prices rise with the score's risk, by the caps alone.
    expect(weightAfter(400, 'capped')).toBe(0);
  });

  it('gives it clearly positive weight where past prices follow the score', () => {
    expect(weightAfter(400, 'market')).toBeGreaterThan(0.3);
  });

  it('reads the slope’s lower bound: 1 for prices one for one with the score, 0 without spread in the score', () => {
    const exact = emptyRelation();
    for (let x = -4; x <= -1; x += 0.5) addPair(exact, 1, x, x);
    expect(relationTrust(exact)).toBeCloseTo(1, 9);
    const flat = emptyRelation();
    for (let i = 0; i < 10; i += 1) addPair(flat, 1, -2, -2 + (i % 3));
    expect(relationTrust(flat)).toBe(0);
    expect(relationTrust(undefined)).toBe(0);
  });

  it('counts only the spread within each level: levels whose means differ add no slope', () => {
    const relation = emptyRelation();
    // Within each level z moves against x; the levels' means rise together.
    for (const level of [0, 1, 2]) for (const dx of [-0.2, 0, 0.2]) addPair(relation, level, -3 + level + dx, -3 + 2 * level - dx);
    expect(relationSlope(relation)?.slope).toBeCloseTo(-1, 9);
    expect(relationSlope(relation)?.df).toBe(9 - 3 - 1);
    expect(relationTrust(relation)).toBe(0);
  });

  it('bounds the slope with Student’s t, so a handful of pairs is not trusted by chance', () => {
    expect(tQuantile975(2)).toBeCloseTo(4.303, 1);
    expect(tQuantile975(3)).toBeCloseTo(3.182, 2);
    expect(tQuantile975(20)).toBeCloseTo(2.086, 3);
    expect(tQuantile975(1e9)).toBeCloseTo(1.96, 3);
    // Four pairs in one level: slope 1, standard error 0.3, two degrees of freedom: 1 - 2 × 0.3 > 0, 1 - 4.3 × 0.3 < 0.
    const few = emptyRelation();
    for (const [x, z] of [
      [-3, -3],
      [-2.5, -2.5 + 0.3],
      [-2, -2 - 0.3],
      [-1.5, -1.5],
    ] as const)
      addPair(few, 0, x, z);
    const fit = relationSlope(few);
    expect(fit?.df).toBe(2);
    expect((fit?.slope ?? 0) - 2 * (fit?.se ?? 0)).toBeGreaterThan(0);
    expect(relationTrust(few)).toBe(0);
    expect(relationSlope({ n: 3, levels: { 0: { n: 3, sx: -6, sz: -6, sxx: 14, sxz: 14, szz: 14 } } })).toBeUndefined();
  });

  it('keeps its state bounded and loads a store from before the per-level sums', () => {
    const older = { n: 50, sx: -100, sz: -100, sxx: 210, sxz: 210, szz: 210 } as AnchorRelation;
    expect(relationTrust(older)).toBe(0);
    for (let x = -4; x <= -1; x += 0.5) addPair(older, 0, x, x);
    expect(older.n).toBe(57);
    expect(relationTrust(older)).toBeCloseTo(1, 9);
    const many = emptyRelation();
    for (let level = 0; level < 20; level += 1) addPair(many, level, -2, -2);
    expect(Object.keys(many.levels ?? {})).toHaveLength(8);
    expect(many.n).toBe(8);
  });
});
