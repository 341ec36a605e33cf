import { describe, expect, it } from 'vitest';
import { UNCAPPED_RISK_LIMITS, checkOffer, type RiskLimits } from '../../src/risk/index.js';
import { reasonText } from '../../src/domain/decision-reason.js';
import type { GuardResult } from '../../src/risk/index.js';

/** The guard's verdict with its reason as the stored text (byte for byte what the guard wrote before reasons were values). */
function withText(...args: Parameters<typeof checkOffer>): { allowed: true } | { allowed: false; code: string; reason: string } {
  const result: GuardResult = checkOffer(...args);
  return result.allowed ? result : { ...result, reason: reasonText(result.reason) };
}

import { snapshot } from './guard-snapshot.js';
import { loanRequest, type LoanRequestOverrides } from '../store/fixtures.js';

function limits(overrides: Partial<RiskLimits> = {}): RiskLimits {
  return { ...UNCAPPED_RISK_LIMITS, ...overrides };
}

function offer(overrides: LoanRequestOverrides & { rate?: number; automateFund?: boolean } = {}) {
  return { request: loanRequest(overrides), rate: overrides.rate ?? 0.3, automateFund: overrides.automateFund ?? true };
}

describe('checkOffer', () => {
  it('allows an offer within every limit', () => {
    expect(withText(offer(), snapshot(), limits())).toEqual({ allowed: true });
  });

  it('refuses when the kill switch is on, by config or by file', () => {
    expect(withText(offer(), snapshot(), limits({ killSwitch: true }))).toEqual({
      allowed: false,
      code: 'kill_switch',
      reason: 'guard kill switch on (config)',
    });
    expect(withText(offer(), snapshot({ killSwitchOn: true }), limits({ killSwitchFile: 'data/STOP' }))).toEqual({
      allowed: false,
      code: 'kill_switch',
      reason: 'guard kill switch on (file data/STOP)',
    });
  });

  it('refuses rates outside 0.03 to 2.0, and accepts the bounds', () => {
    const wide = { maxInterestRate: 5 };
    expect(withText(offer({ ...wide, rate: 0.029 }), snapshot(), limits())).toEqual({
      allowed: false,
      code: 'rate_out_of_bounds',
      reason: 'guard rate 0.029 outside 0.03 to 2.0',
    });
    expect(withText(offer({ ...wide, rate: 2.01 }), snapshot(), limits())).toMatchObject({ code: 'rate_out_of_bounds' });
    expect(withText(offer({ ...wide, rate: Number.NaN }), snapshot(), limits())).toMatchObject({ code: 'rate_out_of_bounds' });
    expect(withText(offer({ ...wide, rate: 0.03 }), snapshot(), limits())).toEqual({ allowed: true });
    expect(withText(offer({ ...wide, rate: 2.0 }), snapshot(), limits())).toEqual({ allowed: true });
  });

  it("refuses a rate above the request's max_interest_rate; equal is allowed", () => {
    expect(withText(offer({ maxInterestRate: 0.6, rate: 0.61 }), snapshot(), limits())).toEqual({
      allowed: false,
      code: 'rate_above_max',
      reason: 'guard rate 0.61 > max_interest_rate 0.6',
    });
    expect(withText(offer({ maxInterestRate: 0.6, rate: 0.6 }), snapshot(), limits())).toEqual({ allowed: true });
  });

  it('refuses risk levels not allowed; friends and crypto are off by default', () => {
    expect(withText(offer({ riskLevel: 4 }), snapshot(), limits())).toEqual({
      allowed: false,
      code: 'risk_level_not_allowed',
      reason: 'guard risk level 4 (crypto) not allowed (allowed 0, 1, 2)',
    });
    expect(withText(offer({ riskLevel: 3 }), snapshot(), limits())).toMatchObject({ code: 'risk_level_not_allowed' });
    expect(withText(offer({ riskLevel: 4 }), snapshot(), limits({ allowedRiskLevels: [4] }))).toEqual({ allowed: true });
    expect(withText(offer({ riskLevel: 0 }), snapshot(), limits({ allowedRiskLevels: [] }))).toMatchObject({
      reason: 'guard risk level 0 (low) not allowed (allowed none)',
    });
  });

  describe('balance (automate_fund)', () => {
    const total = { totalAmount: '520.00' };

    it('refuses when balance - reserved - reserve is below the total', () => {
      expect(withText(offer(total), snapshot({ balanceCents: 4100 }), limits())).toEqual({
        allowed: false,
        code: 'insufficient_balance',
        reason: 'guard balance 41.00 - reserved 0.00 - reserve 0.00 < total 520.00',
      });
      expect(
        withText(offer(total), snapshot({ balanceCents: 100_000, reservedCents: 30_000 }), limits({ minCashReserveCents: 20_000 })),
      ).toEqual({
        allowed: false,
        code: 'insufficient_balance',
        reason: 'guard balance 1000.00 - reserved 300.00 - reserve 200.00 < total 520.00',
      });
    });

    it('refuses when it equals the total (the balance must exceed it), allows one cent more', () => {
      expect(
        withText(offer(total), snapshot({ balanceCents: 62_000, reservedCents: 5_000 }), limits({ minCashReserveCents: 5_000 })),
      ).toEqual({
        allowed: false,
        code: 'insufficient_balance',
        reason: 'guard balance 620.00 - reserved 50.00 - reserve 50.00 = total 520.00, must exceed',
      });
      expect(
        withText(offer(total), snapshot({ balanceCents: 62_001, reservedCents: 5_000 }), limits({ minCashReserveCents: 5_000 })),
      ).toEqual({
        allowed: true,
      });
    });

    it('applies the balance rule without automate_fund too, unless reserve_manual_offers is off', () => {
      expect(withText(offer({ ...total, automateFund: false }), snapshot({ balanceCents: 0 }), limits())).toEqual({
        allowed: false,
        code: 'insufficient_balance',
        reason: 'guard balance 0.00 - reserved 0.00 - reserve 0.00 < total 520.00',
      });
      expect(
        withText(offer({ ...total, automateFund: false }), snapshot({ balanceCents: 0 }), limits({ reserveManualOffers: false })),
      ).toEqual({
        allowed: true,
      });
    });
  });

  it('refuses while a protection pauses offering, after the kill switch', () => {
    expect(withText(offer(), snapshot({ pauseReason: 'account_refusal protection: ...' }), limits())).toEqual({
      allowed: false,
      code: 'paused',
      reason: 'guard paused: account_refusal protection: ...',
    });
    expect(withText(offer(), snapshot({ pauseReason: 'x' }), limits({ killSwitch: true }))).toMatchObject({ code: 'kill_switch' });
  });

  it('refuses a total that is not a positive amount, whatever the other rules say', () => {
    for (const totalAmount of ['0.00', '-300.00']) {
      expect(withText(offer({ totalAmount }), snapshot(), limits())).toEqual({
        allowed: false,
        code: 'invalid_total',
        reason: `guard total_amount ${totalAmount} is not a positive amount`,
      });
    }
  });

  it('caps open exposure including the offer; reaching the cap exactly is allowed', () => {
    const capped = limits({ maxOpenExposureCents: 100_000 });
    expect(withText(offer({ totalAmount: '520.00' }), snapshot({ exposureCents: 50_000 }), capped)).toEqual({
      allowed: false,
      code: 'max_open_exposure',
      reason: 'guard exposure 500.00 + total 520.00 > max 1000.00',
    });
    expect(withText(offer({ totalAmount: '520.00' }), snapshot({ exposureCents: 48_000 }), capped)).toEqual({ allowed: true });
  });

  it('caps exposure per borrower', () => {
    const byBorrower = (id: number) => (id === 77 ? 30_000 : 0);
    const capped = limits({ maxPerBorrowerCents: 80_000 });
    expect(withText(offer({ borrowerId: 77, totalAmount: '520.00' }), snapshot({ exposureByBorrowerCents: byBorrower }), capped)).toEqual({
      allowed: false,
      code: 'max_per_borrower',
      reason: 'guard borrower 77 exposure 300.00 + total 520.00 > max 800.00',
    });
    expect(withText(offer({ borrowerId: 78, totalAmount: '520.00' }), snapshot({ exposureByBorrowerCents: byBorrower }), capped)).toEqual({
      allowed: true,
    });
  });

  it('caps the share of the exposure budget per risk level', () => {
    const capped = limits({ maxOpenExposureCents: 1_000_000, maxShareByRiskLevel: { 2: 0.3 } });
    const book = snapshot({ exposureCents: 400_000, exposureByRiskLevelCents: { 1: 150_000, 2: 250_000 } });
    expect(withText(offer({ riskLevel: 2, totalAmount: '520.00' }), book, capped)).toEqual({
      allowed: false,
      code: 'max_share_by_risk_level',
      reason: 'guard risk level 2 exposure 2500.00 + total 520.00 = 30.2% of 10000.00 > max 30.0%',
    });
    expect(withText(offer({ riskLevel: 2, totalAmount: '500.00' }), book, capped)).toEqual({ allowed: true });
    expect(withText(offer({ riskLevel: 1, totalAmount: '5000.00' }), book, capped)).toEqual({ allowed: true });
    // The first offer of a level in an empty book is judged against the budget, not refused as 100%.
    expect(withText(offer({ riskLevel: 2, totalAmount: '520.00' }), snapshot(), capped)).toEqual({ allowed: true });
  });

  it('caps offers per day: the limit-th offer is the last', () => {
    const capped = limits({ maxOffersPerDay: 10 });
    expect(withText(offer(), snapshot({ offersToday: 10 }), capped)).toEqual({
      allowed: false,
      code: 'max_offers_per_day',
      reason: 'guard offers today 10 >= max 10',
    });
    expect(withText(offer(), snapshot({ offersToday: 9 }), capped)).toEqual({ allowed: true });
  });

  it('caps the amount offered per day', () => {
    const capped = limits({ maxAmountPerDayCents: 100_000 });
    expect(withText(offer({ totalAmount: '520.00' }), snapshot({ amountTodayCents: 48_001 }), capped)).toEqual({
      allowed: false,
      code: 'max_amount_per_day',
      reason: 'guard amount today 480.01 + total 520.00 > max 1000.00',
    });
    expect(withText(offer({ totalAmount: '520.00' }), snapshot({ amountTodayCents: 48_000 }), capped)).toEqual({ allowed: true });
  });

  it('reports the first rule broken, in a fixed order, and is deterministic', () => {
    const everything = limits({ killSwitch: false, maxOpenExposureCents: 1, maxOffersPerDay: 0 });
    const input = offer({ riskLevel: 4, rate: 0.9, maxInterestRate: 0.5 });
    const broke = snapshot({ balanceCents: 0 });
    const first = checkOffer(input, broke, everything);
    expect(first).toMatchObject({ code: 'rate_above_max' });
    for (let i = 0; i < 5; i += 1) expect(checkOffer(input, broke, everything)).toEqual(first);
    expect(withText(offer({ riskLevel: 4 }), broke, everything)).toMatchObject({ code: 'risk_level_not_allowed' });
    expect(withText(offer(), broke, everything)).toMatchObject({ code: 'insufficient_balance' });
    expect(withText(offer(), snapshot(), everything)).toMatchObject({ code: 'max_open_exposure' });
  });

  it('asked before pricing, checks every rule but the rate rules; an offer without a rate is refused', () => {
    const everything = limits({ maxOpenExposureCents: 1, maxOffersPerDay: 0 });
    const amount = (overrides: LoanRequestOverrides = {}) => ({
      request: loanRequest(overrides),
      beforePricing: true as const,
      automateFund: true,
    });
    // The rate rules are skipped: a max rate below the lowest offer does not refuse yet ...
    expect(withText(amount({ maxInterestRate: 0.01 }), snapshot(), limits())).toEqual({ allowed: true });
    // ... and every other rule is checked, in the same order.
    expect(withText(amount(), snapshot(), limits({ killSwitch: true }))).toMatchObject({ code: 'kill_switch' });
    expect(withText(amount(), snapshot({ pauseReason: 'three failures' }), limits())).toMatchObject({ code: 'paused' });
    expect(withText(amount({ riskLevel: 4 }), snapshot({ balanceCents: 0 }), everything)).toMatchObject({ code: 'risk_level_not_allowed' });
    expect(withText(amount(), snapshot({ balanceCents: 0 }), everything)).toMatchObject({ code: 'insufficient_balance' });
    expect(withText(amount(), snapshot(), everything)).toMatchObject({ code: 'max_open_exposure' });
    expect(withText(amount(), snapshot(), limits({ maxOffersPerDay: 0 }))).toMatchObject({ code: 'max_offers_per_day' });
    // Only an explicit beforePricing skips them: a rate left undefined by mistake fails the first.
    const noRate = { request: loanRequest(), rate: undefined as unknown as number, automateFund: true };
    expect(withText(noRate, snapshot(), limits())).toMatchObject({ code: 'rate_out_of_bounds' });
  });
});
