/**
 * The borrower's `credit_score` is a range text (marketplace 2.3), e.g. "650-700". Seen and plausible
 * forms: "650-700" (low-high), "800+" (at least 800), "<580" or "below 580", and a single
 * number. Credit scores run from 300 to 850, which bounds the open ends.
 */

const CREDIT_SCORE_FLOOR = 300;
const CREDIT_SCORE_CEILING = 850;

export interface CreditScoreRange {
  low: number;
  high: number;
}

/** The range a credit score text stands for, or null when the text holds no number. */
export function parseCreditScoreRange(text: string | null | undefined): CreditScoreRange | null {
  if (typeof text !== 'string') return null;
  const plain = plainRange(text);
  if (plain !== undefined) return plain;
  const numbers = (text.match(/\d+(?:\.\d+)?/g) ?? []).map(Number);
  const [first, second] = numbers;
  if (first === undefined) return null;
  if (second !== undefined) return { low: Math.min(first, second), high: Math.max(first, second) };
  if (/\+|above|over/i.test(text)) return { low: first, high: CREDIT_SCORE_CEILING };
  if (/<|below|under/i.test(text)) return { low: CREDIT_SCORE_FLOOR, high: first };
  return { low: first, high: first };
}

const ZERO = 48;
const NINE = 57;
const DASH = 45;
/** Digits a number of the fast path may have: far more than a score, far fewer than lose precision. */
const MAX_DIGITS = 9;

/**
 * The common form "650-700" (digits, a dash, digits, nothing else) read without a regular
 * expression; undefined for any other text, which the general reading handles. The same result:
 * the two numbers, lower first.
 */
function plainRange(text: string): CreditScoreRange | undefined {
  const length = text.length;
  let index = 0;
  let first = 0;
  for (; index < length && index < MAX_DIGITS; index += 1) {
    const code = text.charCodeAt(index);
    if (code < ZERO || code > NINE) break;
    first = first * 10 + (code - ZERO);
  }
  if (index === 0 || index >= length || text.charCodeAt(index) !== DASH) return undefined;
  const secondStart = index + 1;
  let second = 0;
  for (index = secondStart; index < length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < ZERO || code > NINE) return undefined;
    second = second * 10 + (code - ZERO);
  }
  if (index === secondStart || index - secondStart > MAX_DIGITS) return undefined;
  return { low: Math.min(first, second), high: Math.max(first, second) };
}
