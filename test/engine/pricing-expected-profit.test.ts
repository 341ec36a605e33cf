import { describe, expect, it } from 'vitest';
import { compilePricing, resolveMarket } from '../../src/engine/compile/compile-pricing.js';
import { featureSource } from '../../src/engine/features/feature-source.js';
import {
  DEFAULT_MARKET_RESPONSE,
  expectedAcceptProbability,
  parseStrategyText,
  type Decision,
  type MarketResponse,
  type PricingDefinition,
} from '../../src/engine/index.js';
import { expectedAnnualReturn, requiredRate } from '../../src/math/index.js';
import { compileText } from './compile-text.js';
import { loanRequest } from './fixtures.js';
import { reasonText } from '../../src/domain/decision-reason.js';

const logit = (probability: number): number => Math.log(probability / (1 - probability));

/** A strategy whose score is exactly `probability`, priced by `pricing` (YAML lines under pricing:). */
function strategyAt(probability: number, pricing: string, params = '') {
  return compileText(`${params}data: { banking_data: never }
score:
  logistic: { intercept: ${logit(probability)}, terms: [{ feature: loan_terms, weight: 0 }] }
pricing:
${pricing}`);
}

const ECONOMICS = '  target_return: 0.08\n  recovery: 0.25\n  servicing_cost: 0.02\n';
const EXPECTED_PROFIT = `  mode: expected_profit\n${ECONOMICS}`;

/**
 * The optimum found independently: every 0.0001 from break-even to the cap, with the
 * amortization written out here rather than taken from loan-math.ts. The fixture's request
 * funds and repays total_amount.
 */
function bruteForce(probability: number, request: ReturnType<typeof loanRequest>, market: MarketResponse, cap: number) {
  const funded = Number(request.total_amount) * 100;
  const terms = request.loan_terms;
  const share = (probability + (1 - probability) * 0.25) * 0.98;
  const hurdle = funded * (1 + (0.08 * terms) / 12);
  const value = (rate: number): number => {
    const monthly = rate / 12;
    const payment = (funded * monthly) / (1 - (1 + monthly) ** -terms);
    return expectedAcceptProbability(rate, request.max_interest_rate, 1 - probability, market) * (payment * terms * share - hurdle);
  };
  let best = { rate: Number.NaN, value: Number.NEGATIVE_INFINITY };
  for (let tenThousandths = 300; tenThousandths <= Math.floor(cap * 10_000 + 1e-6); tenThousandths += 1) {
    const rate = tenThousandths / 10_000;
    if (rate > cap) break;
    const candidate = value(rate);
    if (candidate > 0 && candidate > best.value) best = { rate, value: candidate };
  }
  return { ...best, valueOf: value };
}

/** The pricing section of a strategy file, validated. */
function pricingOf(yaml: string): PricingDefinition {
  const text = `name: m\ndescription: m\nversion: "1"\nscore: { logistic: { intercept: 3, terms: [{ feature: loan_terms, weight: 0 }] } }\npricing:\n${yaml}`;
  const pricing = parseStrategyText(text, 'm.yaml').pricing;
  if (!pricing) throw new Error('no pricing');
  return pricing;
}

function offered(decision: Decision): number {
  expect(decision.action, decision.reasons.join('; ')).toBe('offer');
  return decision.rate ?? Number.NaN;
}

describe('expected_profit pricing', () => {
  it('undercuts a certain competitor by exactly the last 0.0001 (closed form)', () => {
    // Take-up does not depend on the rate (steepness 0: one borrower in two takes any offer); a
    // competitor always offers at exactly 0.223456 + 1 × (1 − p) = 0.273456, and the lower rate
    // always wins. Profit rises with the rate, so the optimum is the highest 4-decimal rate
    // not above the competitor's: 0.2734.
    const market =
      '  market:\n    take_up: { steepness: 0 }\n    competition: { share: 1, intercept: 0.223456, per_default: 1, spread: 0, width: 0 }\n';
    const decision = strategyAt(0.95, EXPECTED_PROFIT + market).evaluate(loanRequest({ loan_terms: 36 }), {});
    expect(offered(decision)).toBe(0.2734);
    expect(decision.reasons.map(reasonText).at(-1)).toMatch(
      /^price expected_profit 0\.2734: P\(accept\) 0\.50 × profit \d+\.\d\d USD = \d+\.\d\d USD; break-even 0\.\d+$/,
    );
  });

  it('offers the cap when nobody walks away and nobody competes', () => {
    const market = '  market:\n    take_up: { steepness: 0 }\n    competition: { share: 0 }\n';
    const request = loanRequest({ max_interest_rate: 0.6 });
    expect(offered(strategyAt(0.95, EXPECTED_PROFIT + market).evaluate(request, {}))).toBe(0.6);
    expect(offered(strategyAt(0.95, `${EXPECTED_PROFIT}  ceiling: 0.41\n${market}`).evaluate(request, {}))).toBe(0.41);
  });

  it('finds the same optimum as a brute-force search over every 0.0001', () => {
    let compared = 0;
    for (const probability of [0.97, 0.92, 0.85]) {
      for (const maxRate of [0.35, 0.6, 1.2]) {
        for (const terms of [6, 12, 36]) {
          const request = loanRequest({ max_interest_rate: maxRate, loan_terms: terms });
          const decision = strategyAt(probability, EXPECTED_PROFIT).evaluate(request, {});
          const expected = bruteForce(probability, request, DEFAULT_MARKET_RESPONSE, maxRate);
          if (Number.isNaN(expected.rate)) {
            expect(decision.action).toBe('skip');
            continue;
          }
          // The same rate, or one worth the same to within a millionth (a flat top).
          const rate = offered(decision);
          expect(expected.valueOf(rate)).toBeCloseTo(expected.value, 6);
          expect(Math.abs(rate - expected.rate)).toBeLessThanOrEqual(0.0001 + 1e-12);
          compared += 1;
        }
      }
    }
    expect(compared).toBeGreaterThan(20);
  });

  it('never offers above the cap or below break-even', () => {
    let offers = 0;
    for (const probability of [0.6, 0.8, 0.9, 0.97, 0.999]) {
      for (const target of [0, 0.08, 0.3]) {
        for (const maxRate of [0.03, 0.1, 0.35, 1, 2]) {
          for (const caps of ['', '  ceiling: 0.3\n', '  ceiling_share_of_max: 0.9\n']) {
            const pricing = `  mode: expected_profit\n  target_return: ${target}\n${caps}`;
            const decision = strategyAt(probability, pricing).evaluate(loanRequest({ max_interest_rate: maxRate }), {});
            if (decision.action !== 'offer') continue;
            offers += 1;
            const cap = Math.min(maxRate, caps.includes('ceiling:') ? 0.3 : maxRate, caps.includes('share') ? 0.9 * maxRate : maxRate);
            expect(decision.rate).toBeLessThanOrEqual(cap);
            expect(decision.rate).toBeGreaterThanOrEqual(Math.max(0.03, decision.requiredRate ?? Number.POSITIVE_INFINITY));
            expect(decision.expectedReturn ?? 0).toBeGreaterThanOrEqual(target - 1e-12);
          }
        }
      }
    }
    expect(offers).toBeGreaterThan(50);
  });

  it('prices lower when borrowers walk away earlier (lower take-up midpoint)', () => {
    const request = loanRequest({ max_interest_rate: 0.6 });
    const at = (midpoint: number): number =>
      offered(strategyAt(0.95, `${EXPECTED_PROFIT}  market: { take_up: { midpoint: ${midpoint} } }\n`).evaluate(request, {}));
    expect(at(0.4)).toBeLessThan(at(0.7));
    expect(at(0.7)).toBeLessThan(at(1));
  });

  it('takes market numbers from params, so tuning can move them', () => {
    const params = 'params:\n  midpoint: { value: 0.7, min: 0.2, max: 1 }\n';
    const strategy = strategyAt(0.95, `${EXPECTED_PROFIT}  market: { take_up: { midpoint: $midpoint } }\n`, params);
    const request = loanRequest({ max_interest_rate: 0.6 });
    expect(offered(strategy.withParams({ midpoint: 0.4 }).evaluate(request, {}))).toBeLessThan(offered(strategy.evaluate(request, {})));
  });

  it('skips when the hurdle puts break-even above the cap', () => {
    const decision = strategyAt(0.95, '  mode: expected_profit\n  target_return: 1.5\n').evaluate(
      loanRequest({ max_interest_rate: 0.6 }),
      {},
    );
    expect(decision.action).toBe('skip');
    expect(decision.reasons.map(reasonText).at(-1)).toMatch(/^price break-even \d+\.\d+ > max_interest_rate 0\.60$/);
    expect(decision.requiredRate).toBeGreaterThan(0.6);
  });

  it('skips when no rate has a positive expected profit (nobody would take any offer)', () => {
    const market = '  market: { take_up: { midpoint: -1, steepness: 1000 } }\n';
    const decision = strategyAt(0.95, EXPECTED_PROFIT + market).evaluate(loanRequest({ max_interest_rate: 0.6 }), {});
    expect(decision.action).toBe('skip');
    expect(decision.reasons.map(reasonText).at(-1)).toMatch(
      /^price expected_profit <= 0 USD at every rate in \[0\.\d+, 0\.60\]; break-even 0\.\d+$/,
    );
  });

  it('names rate, P(accept), profit and break-even, and keeps expectedReturn the annual return at the rate', () => {
    const probability = 0.95;
    const request = loanRequest({ max_interest_rate: 0.6 });
    const decision = strategyAt(probability, EXPECTED_PROFIT).evaluate(request, {});
    const rate = offered(decision);
    const economics = { probability, recovery: 0.25, servicingCost: 0.02, fundedCents: 105_000, repaidPrincipalCents: 105_000, terms: 12 };
    const breakEven = requiredRate(0.08, economics);
    expect(decision.requiredRate).toBeCloseTo(breakEven, 12);
    expect(decision.expectedReturn).toBeCloseTo(expectedAnnualReturn(rate, economics), 12);
    const accept = expectedAcceptProbability(rate, 0.6, 1 - probability, DEFAULT_MARKET_RESPONSE);
    const [, p, profit, value, shown] =
      /P\(accept\) (\S+) × profit (\S+) USD = (\S+) USD; break-even (\S+)$/.exec(decision.reasons.map(reasonText).at(-1) ?? '') ?? [];
    expect(Number(p)).toBeCloseTo(accept, 2);
    expect(Number(value)).toBeCloseTo(Number(p) * Number(profit), 0);
    expect(Number(shown)).toBeCloseTo(breakEven, 4);
  });

  it('hands back the curve it chose on, so explain can redraw it', () => {
    const pricing = pricingOf(EXPECTED_PROFIT);
    const economics = {
      probability: 0.95,
      recovery: 0.25,
      servicingCost: 0.02,
      fundedCents: 105_000,
      repaidPrincipalCents: 105_000,
      terms: 12,
    };
    const price = compilePricing(pricing, {})(featureSource(loanRequest({ max_interest_rate: 0.6 }), {}), 0.95);
    expect(price.ok).toBe(true);
    if (!price.ok) return;
    const breakEven = requiredRate(0.08, economics);
    expect(price.curve).toEqual({
      economics,
      targetReturn: 0.08,
      maxInterestRate: 0.6,
      market: DEFAULT_MARKET_RESPONSE,
      breakEvenRate: breakEven,
      low: Math.ceil(breakEven * 10_000) / 10_000,
      cap: 0.6,
      capName: 'max_interest_rate',
    });
  });

  it('prices above cost plus where the default market leaves room', () => {
    const request = loanRequest({ max_interest_rate: 0.6 });
    const costPlus = offered(strategyAt(0.95, `${ECONOMICS}  margin: 0.01\n`).evaluate(request, {}));
    const optimum = offered(strategyAt(0.95, EXPECTED_PROFIT).evaluate(request, {}));
    expect(optimum).toBeGreaterThan(costPlus);
    expect(optimum).toBeLessThan(0.6);
  });
});

describe('the market response pricing uses', () => {
  it('is the strategy setting, over the fitted one, over the defaults', () => {
    const pricing = pricingOf(`${EXPECTED_PROFIT}  market: { take_up: { midpoint: 0.5 }, competition: { per_default: 2 } }\n`);
    const fitted = { takeUp: { midpoint: 0.6, steepness: 9 }, competition: { share: 0.3, perDefault: 1.5 } };
    expect(resolveMarket(pricing.market, {}, fitted)).toEqual({
      takeUp: { midpoint: 0.5, steepness: 9 },
      competition: { ...DEFAULT_MARKET_RESPONSE.competition, share: 0.3, perDefault: 2 },
    });
    expect(resolveMarket(undefined, {})).toEqual(DEFAULT_MARKET_RESPONSE);
  });

  it('changes the price when a fitted market is passed in', () => {
    const pricing = pricingOf(EXPECTED_PROFIT);
    const source = featureSource(loanRequest({ max_interest_rate: 0.6 }), {});
    const cautious = compilePricing(pricing, {})(source, 0.95);
    const walkAwayEarly = compilePricing(pricing, {}, { takeUp: { midpoint: 0.3 } })(source, 0.95);
    expect(cautious.ok && walkAwayEarly.ok).toBe(true);
    if (cautious.ok && walkAwayEarly.ok) expect(walkAwayEarly.rate).toBeLessThan(cautious.rate);
  });
});

describe('cost_plus and max_rate pricing', () => {
  it('cost_plus is the default, and a market setting does not move it', () => {
    const request = loanRequest({ max_interest_rate: 0.6 });
    const plain = strategyAt(0.95, `${ECONOMICS}  margin: 0.01\n`).evaluate(request, {});
    const named = strategyAt(0.95, `  mode: cost_plus\n${ECONOMICS}  margin: 0.01\n  market: { take_up: { midpoint: 0.1 } }\n`).evaluate(
      request,
      {},
    );
    expect(named.rate).toBe(plain.rate);
    expect(named.reasons).toEqual(plain.reasons);
    expect(plain.priceCurve).toBeUndefined();
  });

  it('max_rate offers the cap, even where cost plus would skip', () => {
    const request = loanRequest({ max_interest_rate: 0.6 });
    const naive = strategyAt(0.5, `  mode: max_rate\n${ECONOMICS}`).evaluate(request, {});
    expect(offered(naive)).toBe(0.6);
    expect(naive.reasons.map(reasonText).at(-1)).toMatch(/^price max_rate offered 0\.60 \(max_interest_rate\), required_rate \S+$/);
    expect(strategyAt(0.5, ECONOMICS).evaluate(request, {}).action).toBe('skip');
    expect(offered(strategyAt(0.9, `  mode: max_rate\n${ECONOMICS}  ceiling_share_of_max: 0.9\n`).evaluate(request, {}))).toBeCloseTo(
      0.54,
      12,
    );
    expect(offered(strategyAt(0.9, `  mode: max_rate\n${ECONOMICS}  ceiling: 0.3\n`).evaluate(request, {}))).toBe(0.3);
  });
});
