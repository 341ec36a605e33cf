import { describe, expect, it } from 'vitest';
import { DEFAULT_MARKET, judgeOffer, recordedCompetition, type MarketAssumptions } from '../../src/backtest/market-model.js';
import { marketDraw } from '../../src/backtest/market-draws.js';
import { acceptProbability, marketResponse } from '../../src/engine/index.js';
import { totalRepayment } from '../../src/math/index.js';
import { CERTAIN_MARKET, recordingLine } from './recording-fixtures.js';

type OutcomeOverrides = Parameters<typeof recordingLine>[0]['outcome'];
// The engine fixture's request: total_amount 1050.00 over 12 months, max_interest_rate 0.6.
const line = (outcome: OutcomeOverrides, id = 1) => recordingLine({ id, seenAt: '2026-01-01T00:00:00Z', ...(outcome ? { outcome } : {}) });
const certain: MarketAssumptions = { ...DEFAULT_MARKET, ...CERTAIN_MARKET };

describe('what the recording says about the competition', () => {
  it('reads best_competing_rate, then funded_rate, then the unknownCompetition setting', () => {
    expect(recordedCompetition({ status: 'default', best_competing_rate: null }, 'lose')).toEqual({ kind: 'none' });
    expect(recordedCompetition({ status: 'completed', best_competing_rate: 0.2, funded_rate: 0.19 }, 'win')).toEqual({
      kind: 'taken',
      rate: 0.2,
    });
    expect(recordedCompetition({ status: 'unfunded', best_competing_rate: 0.2 }, 'win')).toEqual({ kind: 'refused', rate: 0.2 });
    expect(recordedCompetition({ status: 'collection', funded_rate: 0.15 }, 'lose')).toEqual({ kind: 'taken', rate: 0.15 });
    expect(recordedCompetition({ status: 'current' }, 'win')).toEqual({ kind: 'none' });
    expect(recordedCompetition({ status: 'current' }, 'lose')).toBe('lose');
    expect(recordedCompetition({ status: 'current' }, 0.3)).toEqual({ kind: 'taken', rate: 0.3 });
    expect(recordedCompetition({ status: 'unfunded' }, 0.3)).toEqual({ kind: 'refused', rate: 0.3 });
    expect(recordedCompetition(undefined, 0.3)).toEqual({ kind: 'taken', rate: 0.3 });
  });
});

describe('judging an offer', () => {
  it('accepts iff the request’s seeded draw is below the acceptance probability of the curve, hard or soft', () => {
    for (const comparison of ['hard', 'soft'] as const) {
      const market: MarketAssumptions = { ...DEFAULT_MARKET, comparison };
      for (let id = 1; id <= 40; id += 1) {
        const recorded = line({ status: 'completed', best_competing_rate: 0.25, repaid_fraction: 1 }, id);
        for (const rate of [0.1, 0.24, 0.25, 0.26, 0.45]) {
          const p = acceptProbability(rate, 0.6, { kind: 'taken', rate: 0.25 }, market.response, comparison);
          const verdict = judgeOffer(recorded, rate, market);
          expect(verdict.probability).toBe(p);
          expect(verdict.won).toBe(marketDraw(market.seed, id, 'accept') < p);
          if (!verdict.won) expect(verdict.reason).toBe(rate >= 0.25 ? 'outbid' : 'declined');
          // Hard (the default): never at or above the rate the borrower took.
          if (comparison === 'hard' && rate >= 0.25) expect(verdict.won).toBe(false);
        }
      }
    }
  });

  it('soft comparison, asked for, lets an offer above a taken competing rate win now and then; hard never', () => {
    let soft = 0;
    for (let id = 1; id <= 400; id += 1) {
      const recorded = line({ status: 'completed', best_competing_rate: 0.25, repaid_fraction: 1 }, id);
      expect(judgeOffer(recorded, 0.255, DEFAULT_MARKET).won).toBe(false);
      if (judgeOffer(recorded, 0.255, { ...DEFAULT_MARKET, comparison: 'soft' }).won) soft += 1;
    }
    expect(soft).toBeGreaterThan(0);
  });

  it('is monotone in the rate for one borrower, and the same draw for every strategy (common random numbers)', () => {
    for (let id = 1; id <= 200; id += 1) {
      const recorded = line({ status: 'completed', best_competing_rate: null, repaid_fraction: 1 }, id);
      const won = [0.05, 0.2, 0.35, 0.5, 0.6].map((rate) => judgeOffer(recorded, rate, DEFAULT_MARKET).won);
      // Once a higher rate is refused, every higher one is too.
      expect(won.indexOf(false) === -1 || won.slice(won.indexOf(false)).every((w) => !w)).toBe(true);
      expect(judgeOffer(recorded, 0.35, DEFAULT_MARKET)).toEqual(judgeOffer(recorded, 0.35, { ...DEFAULT_MARKET }));
    }
  });

  it('wins as often as the curve says, over many borrowers, and another seed draws other borrowers', () => {
    const rate = 0.45;
    const p = acceptProbability(rate, 0.6, { kind: 'none' }, DEFAULT_MARKET.response, 'hard');
    const count = 4000;
    let wins = 0;
    let differ = 0;
    for (let id = 1; id <= count; id += 1) {
      const recorded = line({ status: 'completed', best_competing_rate: null, repaid_fraction: 1 }, id);
      const a = judgeOffer(recorded, rate, DEFAULT_MARKET).won;
      if (a) wins += 1;
      if (a !== judgeOffer(recorded, rate, { ...DEFAULT_MARKET, seed: 2 }).won) differ += 1;
    }
    // p = 1 / (1 + e^(6 (0.7368 - 0.7))) = 0.445; 4 standard errors of 4000 draws is 0.031.
    expect(p).toBeCloseTo(0.445, 3);
    expect(Math.abs(wins / count - p)).toBeLessThan(0.031);
    expect(differ).toBeGreaterThan(count * 0.3);
  });

  it('with no competitor an expensive offer is walked away from more often than a cheap one', () => {
    const response = marketResponse();
    const none = { kind: 'none' } as const;
    expect(acceptProbability(0.6, 0.6, none, response, 'hard')).toBeLessThan(0.2);
    expect(acceptProbability(0.1, 0.6, none, response, 'hard')).toBeGreaterThan(0.95);
  });

  it('a defaulter repays the same dollars whatever we charge: repaid_fraction of the total due at the FUNDED rate', () => {
    const recorded = line({ status: 'default', funded_rate: 0.2, best_competing_rate: null, repaid_fraction: 0.5 });
    // Half of 12 x round(105000 x factor(0.2, 12)) at the funded rate, whatever our rate.
    const dollars = Math.round(0.5 * totalRepayment(105_000, 0.2, 12));
    for (const rate of [0.1, 0.3, 0.5]) {
      expect(judgeOffer(recorded, rate, certain)).toMatchObject({
        won: true,
        plan: { kind: 'partial', repaidCents: dollars, final: true },
      });
    }
    // Without funded_rate the fraction is of the total due at our rate.
    const noFunded = line({ status: 'collection', best_competing_rate: null, repaid_fraction: 0.5 });
    expect(judgeOffer(noFunded, 0.3, certain)).toMatchObject({ plan: { repaidCents: Math.round(0.5 * totalRepayment(105_000, 0.3, 12)) } });
  });

  it('passes the recorded missed month on to the repayment plan, from the outcome or from if_funded', () => {
    const recorded = line({ status: 'default', funded_rate: 0.2, best_competing_rate: null, repaid_fraction: 0.5, missed_month: 3 });
    expect(judgeOffer(recorded, 0.2, certain)).toMatchObject({ plan: { kind: 'partial', final: true, missedMonth: 3 } });
    const ifFunded = line({
      status: 'unfunded',
      best_competing_rate: null,
      if_funded: { status: 'default', repaid_fraction: 0.25, missed_month: 2 },
    });
    expect(judgeOffer(ifFunded, 0.1, certain)).toMatchObject({ plan: { kind: 'partial', final: true, missedMonth: 2 } });
  });

  it('a completed loan repays our schedule, prepaid early for the share of borrowers the draw picks', () => {
    const market: MarketAssumptions = { ...certain, prepayment: { share: 0.25, atTermFraction: 0.5 } };
    let prepaid = 0;
    for (let id = 1; id <= 2000; id += 1) {
      const verdict = judgeOffer(line({ status: 'completed', best_competing_rate: null, repaid_fraction: 1 }, id), 0.3, market);
      if (!verdict.won || verdict.plan.kind !== 'full') throw new Error('expected a full plan');
      if (verdict.plan.prepayMonth !== null) {
        expect(verdict.plan.prepayMonth).toBe(6);
        prepaid += 1;
      }
    }
    // 0.25 ± 4 standard errors of 2000 draws (0.039).
    expect(Math.abs(prepaid / 2000 - 0.25)).toBeLessThan(0.039);
  });

  it('judges a request nobody funded only when the recording says how it would have repaid', () => {
    expect(judgeOffer(line({ status: 'unfunded', best_competing_rate: null }), 0.1, certain)).toMatchObject({
      won: false,
      reason: 'unfunded',
    });
    const ifFunded = line({ status: 'unfunded', best_competing_rate: null, if_funded: { status: 'default', repaid_fraction: 0.25 } });
    expect(judgeOffer(ifFunded, 0.1, certain)).toMatchObject({
      won: true,
      plan: { kind: 'partial', repaidCents: Math.round(0.25 * totalRepayment(105_000, 0.1, 12)), final: true },
    });
    // The borrower refused a competitor at 0.2: only the take-up that offer lacked is left for ours.
    const refused = line({ status: 'unfunded', best_competing_rate: 0.2, if_funded: { status: 'completed', repaid_fraction: 1 } });
    const p = acceptProbability(0.15, 0.6, { kind: 'refused', rate: 0.2 }, DEFAULT_MARKET.response, 'hard');
    expect(judgeOffer(refused, 0.15, DEFAULT_MARKET).probability).toBe(p);
    // Take-up 0.950 at 0.15 and 0.918 at 0.2: (0.950 - 0.918) / (1 - 0.918) = 0.389, far below 0.950
    // (0.15 is below 0.2, so the hard comparison does not reduce it).
    expect(p).toBeCloseTo(0.389, 3);
  });

  it('never funds a request without an outcome (unless assumed), nor one assumed lost', () => {
    expect(judgeOffer(line(undefined), 0.1, certain)).toMatchObject({ won: false, reason: 'no_outcome' });
    expect(judgeOffer(line(undefined), 0.1, { ...certain, noOutcome: 0.9 })).toMatchObject({
      won: true,
      plan: { kind: 'partial', final: true },
    });
    expect(judgeOffer(line({ status: 'current', repaid_fraction: 0.3 }), 0.1, { ...certain, unknownCompetition: 'lose' })).toMatchObject({
      won: false,
      reason: 'outbid',
    });
  });
});

describe('the market’s draws', () => {
  it('are uniform, and independent between streams', () => {
    const n = 10_000;
    const buckets = new Array<number>(10).fill(0);
    let same = 0;
    for (let id = 0; id < n; id += 1) {
      const u = marketDraw(7, id, 'accept');
      expect(u).toBeGreaterThanOrEqual(0);
      expect(u).toBeLessThan(1);
      buckets[Math.floor(u * 10)] = (buckets[Math.floor(u * 10)] ?? 0) + 1;
      if (u < 0.5 === marketDraw(7, id, 'prepay') < 0.5) same += 1;
    }
    // Each decile holds 1000 ± 4 standard errors (about 120).
    for (const count of buckets) expect(Math.abs(count - 1000)).toBeLessThan(120);
    expect(Math.abs(same / n - 0.5)).toBeLessThan(0.02);
  });
});
