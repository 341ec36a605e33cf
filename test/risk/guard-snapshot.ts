/** A guard snapshot with plenty of money and nothing committed; tests override what they examine. */
import type { GuardSnapshot } from '../../src/risk/index.js';

export function snapshot(overrides: Partial<GuardSnapshot> = {}): GuardSnapshot {
  return {
    balanceCents: 1_000_000,
    reservedCents: 0,
    exposureCents: 0,
    exposureByBorrowerCents: () => 0,
    exposureByRiskLevelCents: {},
    offersToday: 0,
    amountTodayCents: 0,
    killSwitchOn: false,
    ...overrides,
  };
}
