/**
 * The start of a UTC calendar month. This module keeps a bounded memo of the last month asked
 * about (MEMO_LAST_MONTH, one entry): a replay asks about the same month thousands of times. The
 * answer is the same with or without it (test/clock/utc-month.test.ts).
 */
const MEMO_LAST_MONTH = { startMs: Number.NaN, endMs: Number.NaN };

/** Start of the UTC calendar month holding `ms`: data budgets are per calendar month. */
export function monthStartMs(ms: number): number {
  if (ms >= MEMO_LAST_MONTH.startMs && ms < MEMO_LAST_MONTH.endMs) return MEMO_LAST_MONTH.startMs;
  const date = new Date(ms);
  const start = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
  if (Number.isFinite(start)) {
    MEMO_LAST_MONTH.startMs = start;
    MEMO_LAST_MONTH.endMs = Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
  }
  return start;
}
