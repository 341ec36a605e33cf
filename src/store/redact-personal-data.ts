/**
 * Bank memo text is free text from the bank (spec 2.9) and may hold names and account numbers.
 * No feature reads it (features use agg_90 and the transactions' amounts, types, categories and
 * dates), so it is redacted before a purchase is stored, at any depth; and the bank account id is
 * cut to its last four digits. Everything a feature or a backtest needs is kept.
 */
export const REDACTED_TEXT = '[redacted]';

const TEXT_KEYS = new Set(['memo']);
const ACCOUNT_ID_KEYS = new Set(['acctid']);

/** A copy of `value` without memo text and with account ids cut to four digits. */
export function redactPersonalData(value: unknown, depth = 0): unknown {
  if (depth > 64 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => redactPersonalData(item, depth + 1));
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const lower = key.toLowerCase();
    if (TEXT_KEYS.has(lower) && typeof item === 'string') copy[key] = REDACTED_TEXT;
    else if (ACCOUNT_ID_KEYS.has(lower) && typeof item === 'number' && Number.isInteger(item)) copy[key] = Math.abs(item) % 10_000;
    else copy[key] = redactPersonalData(item, depth + 1);
  }
  return copy;
}
