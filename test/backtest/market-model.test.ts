import { describe, expect, it } from 'vitest';
import {
  addMonthsUtc,
  DEFAULT_MARKET,
  judgeOffer,
  loanCashFlows,
  recordedCompetition,
  type MarketAssumptions,
} from '../../src/backtest/market-model.js';
import { marketDraw } from '../../src/backtest/market-draws.js';
import { acceptProbability, marketResponse } from '../../src/engine/index.js';
import { totalRepayment } from '../../src/math/index.js';
import { CERTAIN_MARKET, recordingLine } from './recording-fixtures.js';

type OutcomeOverrides = Parameters<typeof recordingLine>[0]['outcome'];
// The engine fixture's request: total_amount 1050.00 over 12 months, max_interest_rate 0.6.
const line = (outcome: OutcomeOverrides, id = 1) => recordingLine({ id, seenAt: '2026-01-01T00:00:00Z', ...(outcome ? { outcome } : {}) });
const certain: MarketAssumptions = { ...DEFAULT_MARKET, ...CERTAIN_MARKET };
const full = { kind: 'full', prepayMonth: null } as const;

describe('loan cash flows (hand-computed)', () => {
  // 1000.00 at 12% a year over 12 months: i = 0.01, factor = 0.01 / (1 - 1.01^-12) = 0.08884879,
  // payment 88.85, total due 12 x 88.85 = 1066.20.
  it('repaid in full: interest is what is due beyond the principal, nothing is lost', () => {
    const flows = loanCashFlows(100_000, 0.12, 12, full);
    expect(flows.monthlyPaymentCents).toBe(8885);
    expect(flows.totalDueCents).toBe(106_620);
    expect(flows.instalments).toHaveLength(12);
    expect(flows.instalments.reduce((sum, i) => sum + i.interestCents, 0)).toBe(6620);
    expect(flows.instalments.reduce((sum, i) => sum + i.principalCents, 0)).toBe(100_000);
    expect(flows.lossCents).toBe(0);
    expect(flows.lossMonth).toBeNull();
  });

  it('prepaid in month 6: five instalments, then this month’s interest and the principal left; interest 40.42 instead of 66.20', () => {
    const flows = loanCashFlows(100_000, 0.12, 12, { kind: 'full', prepayMonth: 6 });
    expect(flows.instalments).toHaveLength(6);
    // Interest 10.00 + 9.21 + 8.42 + 7.61 + 6.80 in the five instalments; principal after them
    // 1000 - (78.85 + 79.64 + 80.43 + 81.24 + 82.05) = 597.79, whose month's interest is 5.98.
    expect(flows.instalments[5]).toMatchObject({ month: 6, amountCents: 59_779 + 598, interestCents: 598, principalCents: 59_779 });
    expect(flows.instalments.reduce((sum, i) => sum + i.interestCents, 0)).toBe(4802);
    expect(flows.lossCents).toBe(0);
    expect(flows.repaidCents).toBe(104_802);
  });

  it('half repaid: six instalments, the principal still owed written off in month 7, nothing left to recover', () => {
    const flows = loanCashFlows(100_000, 0.12, 12, { kind: 'partial', repaidCents: 53_310, final: true }, 3);
    expect(flows.instalments.map((i) => i.interestCents)).toEqual([1000, 921, 842, 761, 680, 598]);
    // Principal after six: 1000 - (78.85 + 79.64 + 80.43 + 81.24 + 82.05 + 82.87) = 514.92.
    expect(flows).toMatchObject({ lossCents: 51_492, lossMonth: 7, recoveryCents: 0, recoveryMonth: null });
    expect(4802 - 51_492).toBe(53_310 - 100_000);
  });

  it('a partial instalment is a recovery: written off at the first missed instalment, the part paid arrives later', () => {
    // 106.62 repaid: one instalment of 88.85; at month 2 the 921.15 still owed is written off and
    // the 17.77 the borrower still pays arrives three months later, in month 5.
    const flows = loanCashFlows(100_000, 0.12, 12, { kind: 'partial', repaidCents: 10_662, final: true }, 3);
    expect(flows.instalments.map((i) => i.amountCents)).toEqual([8885]);
    expect(flows).toMatchObject({ lossCents: 92_115, lossMonth: 2, recoveryCents: 1777, recoveryMonth: 5, repaidCents: 10_662 });
    // interest + recovery - loss = repaid - principal, to the cent.
    expect(1000 + 1777 - 92_115).toBe(10_662 - 100_000);
  });

  it('with the missed month recorded, the instalments stop before it: what came back later is a recovery, not instalments', () => {
    // 53.31 USD repaid, but the borrower missed instalment 2: one instalment of 88.85, the 921.15
    // still owed written off in month 2, and the 444.25 collected arrives three months later. Read
    // as instalments, the same dollars would have defaulted in month 7.
    const flows = loanCashFlows(100_000, 0.12, 12, { kind: 'partial', repaidCents: 53_310, final: true, missedMonth: 2 }, 3);
    expect(flows.instalments.map((i) => i.amountCents)).toEqual([8885]);
    expect(flows).toMatchObject({ lossCents: 92_115, lossMonth: 2, recoveryCents: 44_425, recoveryMonth: 5, repaidCents: 53_310 });
    expect(1000 + 44_425 - 92_115).toBe(53_310 - 100_000);
    // Fewer dollars than the instalments before the missed one: the loss comes where the money ran out.
    const short = loanCashFlows(100_000, 0.12, 12, { kind: 'partial', repaidCents: 10_662, final: true, missedMonth: 6 }, 3);
    expect(short).toMatchObject({ lossMonth: 2, recoveryCents: 1777 });
  });

  it('a loan still running keeps its principal open instead of losing it', () => {
    const flows = loanCashFlows(100_000, 0.12, 12, { kind: 'partial', repaidCents: 53_310, final: false });
    expect(flows.lossCents).toBe(0);
    expect(flows.openCents).toBe(51_492);
  });

  it('nothing repaid loses everything in month 1; more than due is capped at the total due', () => {
    const flows = loanCashFlows(50_000, 0.2, 6, { kind: 'partial', repaidCents: 0, final: true });
    expect(flows.instalments).toEqual([]);
    expect(flows).toMatchObject({ lossCents: 50_000, lossMonth: 1, recoveryCents: 0 });
    const over = loanCashFlows(100_000, 0.12, 12, { kind: 'partial', repaidCents: 500_000, final: true });
    expect(over).toMatchObject({ repaidCents: 106_620, lossCents: 0 });
  });
});

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

describe('calendar months', () => {
  it('keeps the day, clamped to the end of shorter months', () => {
    expect(new Date(addMonthsUtc(Date.parse('2026-01-31T10:00:00Z'), 1)).toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(new Date(addMonthsUtc(Date.parse('2026-11-15T00:00:00Z'), 3)).toISOString()).toBe('2027-02-15T00:00:00.000Z');
  });
});
