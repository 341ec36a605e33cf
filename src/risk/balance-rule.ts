/**
 * The balance rule, once, for offering and for funding by hand (marketplace 4.2 rule 4, 4.3
 * precondition 5): the balance less what other pending offers hold back and the cash reserve
 * must EXCEED the total; equal is refused. Returns the figures of a refusal (its reason's), or undefined.
 */
import { formatCents as usd, type Cents } from '../domain/index.js';
import type { BalanceFigures } from '../domain/decision-reason.js';

export function balanceShortfall(input: {
  balanceCents: Cents;
  reservedCents: Cents;
  reserveCents: Cents;
  totalCents: Cents;
}): BalanceFigures | undefined {
  const { balanceCents, reservedCents, reserveCents, totalCents } = input;
  const free = balanceCents - reservedCents - reserveCents;
  if (free > totalCents) return undefined;
  return {
    balance: usd(balanceCents),
    reserved: usd(reservedCents),
    reserve: usd(reserveCents),
    total: usd(totalCents),
    equal: free === totalCents,
  };
}
