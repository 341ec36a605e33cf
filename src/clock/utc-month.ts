/** The last month asked about, [start, end): a replay asks about the same month thousands of times. */
let lastStartMs = Number.NaN;
let lastEndMs = Number.NaN;

/** Start of the UTC calendar month holding `ms`: data budgets are per calendar month. */
export function monthStartMs(ms: number): number {
  if (ms >= lastStartMs && ms < lastEndMs) return lastStartMs;
  const date = new Date(ms);
  const start = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
  if (Number.isFinite(start)) {
    lastStartMs = start;
    lastEndMs = Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
  }
  return start;
}
