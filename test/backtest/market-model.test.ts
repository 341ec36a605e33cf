import { describe, expect, it } from 'vitest';
import { addMonthsUtc, DEFAULT_MARKET, judgeOffer, loanCashFlows } from '../../src/backtest/market-model.js';
import { recordingLine } from './recording-fixtures.js';

const line = (outcome: Parameters<typeof recordingLine>[0]['outcome']) => recordingLine({ id: 1, seenAt: '2026-01-01T00:00:00Z', ...(outcome ? { outcome } : {}) });

describe('loan cash flows (hand-computed)', () => {
  // 1000.00 at 12% a year over 12 months: i = 0.01, factor = 0.01 / (1 - 1.01^-12) = 0.08884879,
  // payment 88.85, total due 12 x 88.85 = 1066.20.
  it('repaid in full: interest is what is due beyond the principal, nothing is lost', () => {
    const flows = loanCashFlows(100_000, 0.12, 12, 1, true);
    expect(flows.monthlyPaymentCents).toBe(8885);
    expect(flows.totalDueCents).toBe(106_620);
    expect(flows.instalments).toHaveLength(12);
    expect(flows.instalments.reduce((sum, i) => sum + i.interestCents, 0)).toBe(6620);
    expect(flows.instalments.reduce((sum, i) => sum + i.principalCents, 0)).toBe(100_000);
    expect(flows.lossCents).toBe(0);
    expect(flows.lossMonth).toBeNull();
  });

  it('half repaid: six instalments, the first month interest 10.00 on 1000.00, the rest of the principal lost in month 7', () => {
    const flows = loanCashFlows(100_000, 0.12, 12, 0.5, true);
    // 0.5 x 1066.20 = 533.10 = exactly six instalments of 88.85.
    expect(flows.repaidCents).toBe(53_310);
    expect(flows.instalments.map((i) => i.interestCents)).toEqual([1000, 921, 842, 761, 680, 598]);
    // Principal after six: 1000 - (7885 + 7964 + 8043 + 8124 + 8205 + 8287) cents = 514.92.
    expect(flows.lossCents).toBe(51_492);
    expect(flows.lossMonth).toBe(7);
    // Net = interest - loss = repaid - funded.
    expect(4802 - 51_492).toBe(53_310 - 100_000);
  });

  it('a partial instalment is the month of the loss', () => {
    const flows = loanCashFlows(100_000, 0.12, 12, 0.1, true);
    // 106.62 repaid: one full instalment of 88.85 and 17.77 of the second.
    expect(flows.instalments.map((i) => i.amountCents)).toEqual([8885, 1777]);
    expect(flows.lossMonth).toBe(2);
    expect(flows.instalments[1]?.interestCents).toBe(921);
  });

  it('a loan still running keeps its principal open instead of losing it', () => {
    const flows = loanCashFlows(100_000, 0.12, 12, 0.5, false);
    expect(flows.lossCents).toBe(0);
    expect(flows.openCents).toBe(51_492);
  });

  it('nothing repaid loses everything in month 1', () => {
    const flows = loanCashFlows(50_000, 0.2, 6, 0, true);
    expect(flows.instalments).toEqual([]);
    expect(flows.lossCents).toBe(50_000);
    expect(flows.lossMonth).toBe(1);
  });
});

describe('judging an offer', () => {
  it('wins at or below the best competing rate, loses above it', () => {
    const recorded = line({ status: 'completed', best_competing_rate: 0.2, repaid_fraction: 1 });
    expect(judgeOffer(recorded, 0.2, DEFAULT_MARKET)).toEqual({ won: true, repaidFraction: 1, final: true });
    expect(judgeOffer(recorded, 0.1999, DEFAULT_MARKET).won).toBe(true);
    expect(judgeOffer(recorded, 0.2001, DEFAULT_MARKET)).toEqual({ won: false, reason: 'outbid' });
  });

  it('wins when nobody else offered (null)', () => {
    expect(judgeOffer(line({ status: 'default', best_competing_rate: null, repaid_fraction: 0.25 }), 1.5, DEFAULT_MARKET)).toEqual({
      won: true,
      repaidFraction: 0.25,
      final: true,
    });
  });

  it('falls back to the funded rate, then to the assumption, when competition is unknown', () => {
    const funded = line({ status: 'completed', funded_rate: 0.15 });
    expect(judgeOffer(funded, 0.16, DEFAULT_MARKET).won).toBe(false);
    expect(judgeOffer(funded, 0.15, DEFAULT_MARKET)).toEqual({ won: true, repaidFraction: 1, final: true });
    const unknown = line({ status: 'current', repaid_fraction: 0.3 });
    expect(judgeOffer(unknown, 0.5, DEFAULT_MARKET)).toEqual({ won: true, repaidFraction: 0.3, final: false });
    expect(judgeOffer(unknown, 0.5, { ...DEFAULT_MARKET, unknownCompetition: 'lose' }).won).toBe(false);
    expect(judgeOffer(unknown, 0.5, { ...DEFAULT_MARKET, unknownCompetition: 0.4 }).won).toBe(false);
  });

  it('never funds an unfunded request or one without an outcome (unless assumed)', () => {
    expect(judgeOffer(line({ status: 'unfunded', best_competing_rate: null }), 0.1, DEFAULT_MARKET)).toEqual({ won: false, reason: 'unfunded' });
    expect(judgeOffer(line(undefined), 0.1, DEFAULT_MARKET)).toEqual({ won: false, reason: 'no_outcome' });
    expect(judgeOffer(line(undefined), 0.1, { ...DEFAULT_MARKET, noOutcome: 0.9 })).toEqual({ won: true, repaidFraction: 0.9, final: true });
  });
});

describe('calendar months', () => {
  it('keeps the day, clamped to the end of shorter months', () => {
    expect(new Date(addMonthsUtc(Date.parse('2026-01-31T10:00:00Z'), 1)).toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(new Date(addMonthsUtc(Date.parse('2026-11-15T00:00:00Z'), 3)).toISOString()).toBe('2027-02-15T00:00:00.000Z');
  });
});
