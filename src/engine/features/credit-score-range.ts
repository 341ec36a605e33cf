/**
 * The borrower's `credit_score` is a range text (spec 2.3), e.g. "650-700". Seen and plausible
 * forms: "650-700" (low-high), "800+" (at least 800), "<580" or "below 580", and a single
 * number. Credit scores run from 300 to 850, which bounds the open ends.
 */

export const CREDIT_SCORE_FLOOR = 300;
export const CREDIT_SCORE_CEILING = 850;

export interface CreditScoreRange {
  low: number;
  high: number;
}

/** The range a credit score text stands for, or null when the text holds no number. */
export function parseCreditScoreRange(text: string | null | undefined): CreditScoreRange | null {
  if (typeof text !== 'string') return null;
  const numbers = (text.match(/\d+(?:\.\d+)?/g) ?? []).map(Number);
  const [first, second] = numbers;
  if (first === undefined) return null;
  if (second !== undefined) return { low: Math.min(first, second), high: Math.max(first, second) };
  if (/\+|above|over/i.test(text)) return { low: first, high: CREDIT_SCORE_CEILING };
  if (/<|below|under/i.test(text)) return { low: CREDIT_SCORE_FLOOR, high: first };
  return { low: first, high: first };
}
