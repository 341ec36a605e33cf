/**
 * What is bought about a borrower is stored without the free text in it. The bank's raw response
 * (marketplace 2.9 `data_aggregation`) carries each transaction's `Memo`, free text from the bank that
 * may hold names and account numbers; other providers may send descriptions or payee names. No
 * feature reads free text: features use `agg_90`, the balance, and the transactions' amounts,
 * types, categories and dates, which are kept. So every free-text field, at any depth, becomes
 * `[redacted]`, and the bank account id is cut to its last four digits, before anything is
 * written. A feature that ever needs something from memo text must store that derived value
 * (a count, a flag), never the text.
 */
export const REDACTED_TEXT = '[redacted]';

/**
 * Keys (compared in lower case) whose string values are free text or a person's name. The bank's
 * own name (`borrower_bank_name_at_loan_request`) is an institution, not a person, and is kept;
 * `StatusDesc` is the provider's status ("Success") and is kept.
 */
const FREE_TEXT_KEYS = new Set([
  'memo',
  'description',
  'desc',
  'narrative',
  'note',
  'notes',
  'comment',
  'comments',
  'name',
  'fullname',
  'firstname',
  'lastname',
  'payee',
  'payeename',
  'payer',
  'payername',
  'merchant',
  'merchantname',
  'counterparty',
]);
const ACCOUNT_ID_KEYS = new Set(['acctid']);
const KEPT_ACCOUNT_DIGITS = 10_000;
/** Deeper than any real payload; beyond it values are dropped rather than stored unread. */
const MAX_DEPTH = 64;

/** A copy of `value` without free text and with account ids cut to their last four digits. */
export function redactPersonalData(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth > MAX_DEPTH) return REDACTED_TEXT;
  if (Array.isArray(value)) return value.map((item) => redactPersonalData(item, depth + 1));
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) copy[key] = redactField(key.toLowerCase(), item, depth);
  return copy;
}

function redactField(key: string, item: unknown, depth: number): unknown {
  if (FREE_TEXT_KEYS.has(key) && typeof item === 'string') return REDACTED_TEXT;
  if (ACCOUNT_ID_KEYS.has(key)) return lastFourDigits(item);
  return redactPersonalData(item, depth + 1);
}

/** An account id as the bank sent it (an integer; a text in some banks' answers), cut to four digits. */
function lastFourDigits(item: unknown): unknown {
  if (typeof item === 'number' && Number.isInteger(item)) return Math.abs(item) % KEPT_ACCOUNT_DIGITS;
  if (typeof item === 'string') return item.replace(/\d(?=(?:\D*\d){4})/g, '*');
  return item;
}
