/**
 * The guard's balance rule at funding time (marketplace 4.3 precondition 5): before lendbot funds an
 * accepted offer by hand, the usable balance less the money other pending offers hold back and
 * the cash reserve must EXCEED the offer's total. Pure, like checkOffer: a refusal is a value
 * whose reason names the figures, logged and retried later, never sent to the service.
 */
import type { Cents } from '../domain/index.js';
import { guardReason } from '../domain/decision-reason.js';
import { balanceShortfall } from './balance-rule.js';
import type { GuardResult } from './check-offer.js';
import type { RiskLimits } from './risk-limits.js';

/** What funding one accepted offer is checked against. */
export interface FundingToCheck {
  /** The offer's total_amount: what funding pays out. */
  totalCents: Cents;
  /** Money usable now (the balance tracker's current balance). */
  balanceCents: Cents;
  /** Held back by OTHER pending offers (this one's own reservation is what pays for it). */
  reservedByOthersCents: Cents;
}

/** Whether lendbot may fund this accepted offer now. */
export function checkFunding(input: FundingToCheck, limits: Pick<RiskLimits, 'minCashReserveCents'>): GuardResult {
  const { totalCents, balanceCents, reservedByOthersCents } = input;
  if (!Number.isSafeInteger(totalCents) || totalCents <= 0) {
    return {
      allowed: false,
      code: 'invalid_total',
      reason: guardReason({ guardCode: 'invalid_total', at: 'funding', totalCents: String(totalCents) }),
    };
  }
  const shortfall = balanceShortfall({
    balanceCents,
    reservedCents: reservedByOthersCents,
    reserveCents: limits.minCashReserveCents,
    totalCents,
  });
  if (shortfall === undefined) return { allowed: true };
  return {
    allowed: false,
    code: 'insufficient_balance',
    reason: guardReason({ guardCode: 'insufficient_balance', at: 'funding', ...shortfall }),
  };
}
