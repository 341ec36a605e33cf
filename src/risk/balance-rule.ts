/**
 * The balance rule, once, for offering and for funding by hand (spec 4.2 rule 4, 4.3
 * precondition 5): the balance less what other pending offers hold back and the cash reserve
 * must EXCEED the total; equal is refused. Returns the figures of a refusal, or undefined.
 */
import { formatCents as usd, type Cents } from '../domain/index.js';

export function balanceShortfall(input: { balanceCents: Cents; reservedCents: Cents; reserveCents: Cents; totalCents: Cents }): string | undefined {
  const { balanceCents, reservedCents, reserveCents, totalCents } = input;
  const free = balanceCents - reservedCents - reserveCents;
  if (free > totalCents) return undefined;
  const figures = `balance ${usd(balanceCents)} - reserved ${usd(reservedCents)} - reserve ${usd(reserveCents)}`;
  return free < totalCents ? `${figures} < total ${usd(totalCents)}` : `${figures} = total ${usd(totalCents)}, must exceed`;
}
