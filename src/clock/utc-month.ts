/** Start of the UTC calendar month holding `ms`: data budgets are per calendar month. */
export function monthStartMs(ms: number): number {
  const date = new Date(ms);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
}
