/**
 * `pricing.level_uncertainty.max_rate_anchor`: the request's maximum rate as an upper bound on the
 * learned default level. The bound is the exact inverse of the price's own break-even; the level
 * truncated there is priced at its mean over what it kept (the score's own figure where it cuts
 * nothing, never above the bound); in the engine a cold start that refused a short loan because
 * its mean default could not pay at the maximum rate now offers, below that rate, and says why.
 */
import { describe, expect, it } from 'vitest';
import { evaluate } from '../../../src/engine/index.js';
import { reasonText } from '../../../src/domain/decision-reason.js';
import { reasonWords } from '../../../src/log/human-reasons.js';
import { anchoredLevel, breakEvenDefault } from '../../../src/engine/market/max-rate-anchor.js';
import { meanDefaultLogOdds } from '../../../src/engine/market/calibration-learner.js';
import { logistic, logit, requiredRate, type LoanEconomics } from '../../../src/math/index.js';
import { compileText } from '../compile-text.js';
import { loanRequest } from '../fixtures.js';

const economics: LoanEconomics = {
  probability: 0.9,
  recovery: 0.25,
  servicingCost: 0.02,
  fundedCents: 100_000,
  repaidPrincipalCents: 105_000,
  terms: 6,
};

/** E[σ(η) | η ≤ b] by brute force: a fine midpoint sum of the normal density, independent of the module's quadrature. */
function truncatedMean(mean: number, sd: number, b: number): number {
  let mass = 0;
  let weight = 0;
  const steps = 200_000;
  const from = mean - 12 * sd;
  const to = Math.min(b, mean + 12 * sd);
  const h = (to - from) / steps;
  for (let i = 0; i < steps; i += 1) {
    const eta = from + (i + 0.5) * h;
    const density = Math.exp(-0.5 * ((eta - mean) / sd) ** 2);
    mass += logistic(eta) * density;
    weight += density;
  }
  return mass / weight;
}

describe('the break-even default at the maximum rate', () => {
  it('is the default at which the price breaks even exactly at that rate', () => {
    for (const [rate, hurdle, terms] of [
      [0.36, 0.03, 6],
      [0.36, 0.03, 36],
      [0.6, 0.08, 12],
      [0.99, 0, 3],
    ] as const) {
      const bound = breakEvenDefault(rate, hurdle, { ...economics, terms });
      expect(bound).toBeGreaterThan(0);
      expect(requiredRate(hurdle, { ...economics, terms, probability: 1 - (bound ?? 0) })).toBeCloseTo(rate, 8);
    }
  });

  it('is absent where even full repayment misses the hurdle at that rate', () => {
    expect(breakEvenDefault(0.03, 0.3, economics)).toBeUndefined();
  });
});

describe('the level truncated at the bound', () => {
  it("is the score's own mean where the bound cuts nothing", () => {
    const anchor = anchoredLevel(-2.6, 1.27, 0.999);
    expect(anchor.kept).toBeCloseTo(1, 6);
    expect(anchor.meanDefault).toBeCloseTo(logistic(meanDefaultLogOdds(-2.6, 1.27 ** 2)), 6);
  });

  it('is the mean over the levels kept, below the bound, where it binds', () => {
    for (const [mean, sd, bound] of [
      [-2.6, 1.27, 0.1],
      [-2.0, 1.27, 0.05],
      [-2.6, 1.27, 0.434],
      [-1.5, 0.4, 0.2],
    ] as const) {
      const anchor = anchoredLevel(mean, sd, bound);
      const exact = truncatedMean(mean, sd, logit(bound));
      expect(anchor.meanDefault).toBeLessThanOrEqual(bound);
      expect(anchor.meanDefault).toBeLessThan(logistic(meanDefaultLogOdds(mean, sd * sd)));
      // MacKay's whole mean scaled by the exact truncation: within its own error (a few tenths of a point).
      expect(Math.abs(anchor.meanDefault - exact)).toBeLessThan(0.005);
    }
  });

  it('sits at the bound when the learned level is known to be above it', () => {
    const anchor = anchoredLevel(-1, 0.05, 0.1);
    expect(anchor.kept).toBeLessThan(1e-6);
    expect(anchor.meanDefault).toBe(0.1);
  });
});

describe('a strategy with max_rate_anchor', () => {
  // A constant score of log-odds 2.5 (default 7.6 %) under a learned level at a cold start: the mean
  // default 12.3 %. On a 3-month loan at most 36 % the lender breaks even only below about 4.8 % default.
  const strategy = (anchor: boolean): string => `
data: { banking_data: never }
score:
  logistic: { intercept: 2.5, terms: [{ feature: loan_terms, weight: 0 }] }
  calibration: { method: learned, level_sd: 1, slope_sd: 0.3 }
pricing:
  mode: expected_profit
  target_return: 0.08
  level_uncertainty: { mode: cost_plus_floor, quantile: 0.8${anchor ? ', max_rate_anchor: true' : ''} }
`;
  const request = loanRequest({ loan_terms: 3, max_interest_rate: 0.36 });
  const decide = (anchor: boolean) => evaluate(request, { unavailable: { bankingData: true } }, compileText(strategy(anchor)));

  it('offers below the maximum rate where the unanchored level refused, and the reason names the bound', () => {
    const plain = decide(false);
    expect(plain.action).toBe('skip');
    expect(plain.reasons.map((reason) => reason.code)).toContain('price_break_even_above_cap');

    const anchored = decide(true);
    expect(anchored.action).toBe('offer');
    expect(anchored.rate).toBeLessThanOrEqual(request.max_interest_rate);
    // The decision's probability is still the score's: the anchor is the price's bound, not the score's.
    expect(anchored.probability).toBe(plain.probability);
    const level = anchored.reasons.map(reasonText).find((text) => text.startsWith('price level uncertain')) ?? '';
    const found = /: default (\S+), sd 1\.25, at most (\S+) by the max rate \((\S+) kept\); floor (\S+) at q0\.80 default (\S+), /.exec(
      level,
    );
    expect(found).not.toBeNull();
    const [, priced = '', bound = '', kept = '', floor = '', pessimistic = ''] = found ?? [];
    expect(Number(bound)).toBeCloseTo(
      breakEvenDefault(0.36, 0.08, { ...economics, recovery: 0.2, servicingCost: 0, fundedCents: 105_000, terms: 3 }) ?? 0,
      4,
    );
    expect(Number(kept)).toBeGreaterThan(0);
    expect(Number(kept)).toBeLessThan(1);
    expect(Number(priced)).toBeLessThan(Number(bound));
    expect(Number(pessimistic)).toBeLessThan(Number(bound));
    expect(anchored.rate).toBeGreaterThanOrEqual(Number(floor));
    // In plain words too (the dashboard, explain's why line).
    const words = anchored.reasons.filter((reason) => reason.code === 'price_level_uncertain').map(reasonWords);
    expect(words[0]).toMatch(
      /, no more than \d+\.\d+ %, the break-even at the request's maximum rate \(\d+(\.\d+)? % of the belief kept\)\)/,
    );
  });

  it('never offers above the request’s maximum rate, whatever the term and cap', () => {
    for (const terms of [3, 6, 12, 24, 36, 60])
      for (const max of [0.08, 0.2, 0.36, 0.6, 0.99]) {
        const r = loanRequest({ loan_terms: terms, max_interest_rate: max });
        const decision = evaluate(r, { unavailable: { bankingData: true } }, compileText(strategy(true)));
        if (decision.action === 'offer') expect(decision.rate).toBeLessThanOrEqual(max);
      }
  });
});
