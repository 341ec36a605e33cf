import { describe, expect, it } from 'vitest';
import { checkFunding } from '../../src/risk/index.js';
import { reasonText } from '../../src/domain/decision-reason.js';
import type { GuardResult } from '../../src/risk/index.js';

/** The guard's verdict with its reason as the stored text (byte for byte what the guard wrote before reasons were values). */
function withText(...args: Parameters<typeof checkFunding>): { allowed: true } | { allowed: false; code: string; reason: string } {
  const result: GuardResult = checkFunding(...args);
  return result.allowed ? result : { ...result, reason: reasonText(result.reason) };
}

const noReserve = { minCashReserveCents: 0 };

describe('checkFunding (spec 4.3 precondition 5)', () => {
  it('allows funding when balance - reserved by others - reserve exceeds the total', () => {
    expect(withText({ totalCents: 52_000, balanceCents: 100_000, reservedByOthersCents: 20_000 }, { minCashReserveCents: 27_999 })).toEqual(
      {
        allowed: true,
      },
    );
  });

  it('refuses when what is left equals the total: the balance must exceed it', () => {
    expect(withText({ totalCents: 52_000, balanceCents: 100_000, reservedByOthersCents: 20_000 }, { minCashReserveCents: 28_000 })).toEqual(
      {
        allowed: false,
        code: 'insufficient_balance',
        reason: 'guard funding balance 1000.00 - reserved 200.00 - reserve 280.00 = total 520.00, must exceed',
      },
    );
  });

  it('refuses when money reserved by other offers leaves too little, naming the figures', () => {
    expect(withText({ totalCents: 52_000, balanceCents: 60_000, reservedByOthersCents: 10_000 }, noReserve)).toEqual({
      allowed: false,
      code: 'insufficient_balance',
      reason: 'guard funding balance 600.00 - reserved 100.00 - reserve 0.00 < total 520.00',
    });
  });

  it('refuses after the lender withdrew money, with nothing reserved', () => {
    expect(withText({ totalCents: 52_000, balanceCents: 4_100, reservedByOthersCents: 0 }, noReserve)).toEqual({
      allowed: false,
      code: 'insufficient_balance',
      reason: 'guard funding balance 41.00 - reserved 0.00 - reserve 0.00 < total 520.00',
    });
  });

  it('refuses a total that is not a positive amount', () => {
    expect(withText({ totalCents: 0, balanceCents: 100_000, reservedByOthersCents: 0 }, noReserve)).toEqual({
      allowed: false,
      code: 'invalid_total',
      reason: 'guard funding total 0 cents is not a positive amount',
    });
  });
});
