/**
 * Figures as people read them, wherever lendbot speaks to a person (the terminal, chat
 * notifications): money in dollars with thousands separators ("$1,234.56"), rates in percent
 * ("22.8 %", the API's unit is the fraction 0.228), risk levels by name ("high").
 */
import { RISK_LEVEL_NAMES } from '../domain/index.js';

/** "$1,198.00" from a dollar amount or the engine's money text ("1198.00", "-5.00"); the text itself when it is not a number. */
export function dollars(amount: string | number): string {
  const value = typeof amount === 'number' ? amount : Number(amount);
  if (!Number.isFinite(value)) return String(amount);
  const text = Math.abs(value).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return `${value < 0 ? '-' : ''}$${text}`;
}

/** "22.8 %" from a rate or share in the API's unit (0.228); at most two decimals. */
export function percent(fraction: string | number): string {
  const value = typeof fraction === 'number' ? fraction : Number(fraction);
  if (!Number.isFinite(value)) return String(fraction);
  return `${Number((value * 100).toFixed(2))} %`;
}

/** "22.8 %" with exactly one decimal ("5.0 %", not "5 %"), for report lines and columns that line up. */
export const percentOneDecimal = (share: number): string => `${(share * 100).toFixed(1)} %`;

/** A risk level as people say it: "low", "medium", "high", "friends", "crypto" (spec: borrower_card_color). */
export function riskLevelName(level: number | string): string {
  const name = RISK_LEVEL_NAMES[Number(level)];
  return name ?? `level ${level}`;
}

/** Integer cents as dollars: 123456 → "$1,234.56", -5 → "-$0.05". */
export function dollarsFromCents(cents: number): string {
  return dollars(Math.round(cents) / 100);
}

/** A count with its noun, singular for one ("1 offer", "2 offers"); `many` for irregular plurals. */
export function counted(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
