import { describe, expect, it } from 'vitest';
import { DEFAULT_RISK_LIMITS, UNCAPPED_RISK_LIMITS, capitalCents, capsNow, checkOffer, type RiskLimits } from '../../src/risk/index.js';
import { reasonText } from '../../src/domain/decision-reason.js';
import { snapshot } from './guard-snapshot.js';
import { loanRequest } from '../store/fixtures.js';

const offer = (totalAmount: string, borrowerId = 501) => ({
  request: loanRequest({ totalAmount, borrowerId }),
  rate: 0.3,
  automateFund: true,
});

function verdict(...args: Parameters<typeof checkOffer>): string {
  const result = checkOffer(...args);
  return result.allowed ? 'allowed' : reasonText(result.reason);
}

describe('caps as shares of the capital', () => {
  it('takes the capital as the balance plus money lent out (exposure beyond the reservations)', () => {
    // 3,000.00 cash of which 500.00 reserved by a pending offer; 2,500.00 lent out.
    expect(capitalCents({ balanceCents: 300_000, reservedCents: 50_000, exposureCents: 300_000 })).toBe(550_000);
    // Lending cash out does not move it: 1,000.00 leaves the balance and joins the exposure.
    expect(capitalCents({ balanceCents: 200_000, reservedCents: 50_000, exposureCents: 400_000 })).toBe(550_000);
    expect(capitalCents({ balanceCents: -10_000, reservedCents: 0, exposureCents: 0 })).toBe(0);
  });

  it('gives the shipped shares in USD for a 5,000 and a 100,000 USD account', () => {
    const at = (balanceCents: number) => capsNow(DEFAULT_RISK_LIMITS, { balanceCents, reservedCents: 0, exposureCents: 0 });
    expect(at(500_000)).toEqual({
      capitalCents: 500_000,
      maxOpenExposureCents: 450_000,
      maxPerBorrowerCents: 100_000,
      maxAmountPerDayCents: 250_000,
    });
    expect(at(10_000_000)).toMatchObject({
      maxOpenExposureCents: 9_000_000,
      maxPerBorrowerCents: 2_000_000,
      maxAmountPerDayCents: 5_000_000,
    });
  });

  it('refuses at the share of the capital the snapshot shows, and allows reaching it exactly', () => {
    const limits: RiskLimits = { ...UNCAPPED_RISK_LIMITS, maxOpenExposureShare: 0.5 };
    // Capital 2,000.00 (1,000.00 cash, 1,000.00 lent): the cap is 1,000.00, already reached.
    const full = snapshot({ balanceCents: 100_000, exposureCents: 100_000 });
    expect(verdict(offer('10.00'), full, limits)).toBe('guard exposure 1000.00 + total 10.00 > max 1000.00');
    // The same account after a 10,000.00 deposit: capital 12,000.00, cap 6,000.00.
    expect(verdict(offer('5000.00'), snapshot({ balanceCents: 1_100_000, exposureCents: 100_000 }), limits)).toBe('allowed');
    expect(verdict(offer('5000.01'), snapshot({ balanceCents: 1_100_000, exposureCents: 100_000 }), limits)).toBe(
      'guard exposure 1000.00 + total 5000.01 > max 6000.00',
    );
  });

  it('scales the per-borrower and daily caps the same way', () => {
    const limits: RiskLimits = { ...UNCAPPED_RISK_LIMITS, maxPerBorrowerShare: 0.2, maxAmountPerDayShare: 0.5 };
    const small = snapshot({ balanceCents: 500_000 });
    expect(verdict(offer('1000.00'), small, limits)).toBe('allowed');
    expect(verdict(offer('1000.01'), small, limits)).toBe('guard borrower 501 exposure 0.00 + total 1000.01 > max 1000.00');
    expect(verdict(offer('1000.01'), snapshot({ balanceCents: 10_000_000 }), limits)).toBe('allowed');
    expect(verdict(offer('900.00'), snapshot({ balanceCents: 500_000, amountTodayCents: 200_000 }), limits)).toBe(
      'guard amount today 2000.00 + total 900.00 > max 2500.00',
    );
  });

  it('an absolute cap stays absolute whatever the account holds', () => {
    const limits: RiskLimits = { ...UNCAPPED_RISK_LIMITS, maxPerBorrowerCents: 100_000 };
    expect(verdict(offer('1000.01'), snapshot({ balanceCents: 100_000_000 }), limits)).toBe(
      'guard borrower 501 exposure 0.00 + total 1000.01 > max 1000.00',
    );
  });

  it('a share of the whole capital never lets an offer past the balance', () => {
    const limits: RiskLimits = { ...UNCAPPED_RISK_LIMITS, maxOpenExposureShare: 1, maxAmountPerDayShare: 1, maxPerBorrowerShare: 1 };
    // 500.00 cash, 4,500.00 lent: capital 5,000.00, but an offer of 600.00 does not fit the cash.
    expect(verdict(offer('600.00'), snapshot({ balanceCents: 50_000, exposureCents: 450_000 }), limits)).toBe(
      'guard balance 500.00 - reserved 0.00 - reserve 0.00 < total 600.00',
    );
  });
});
