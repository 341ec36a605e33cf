// Conversions between TypeScript values and what the tables hold (ISO texts, 0/1 flags, JSON).

/** An epoch-milliseconds time as the fixed-width ISO text the tables store and compare. */
export function isoFromMs(ms: number): string {
  return new Date(ms).toISOString();
}

/** An ISO text from a table back to epoch milliseconds. */
export function msFromIso(iso: string): number {
  return Date.parse(iso);
}

/** SQLite has no boolean type; flags are 0 or 1. */
export function flag(value: boolean): 0 | 1 {
  return value ? 1 : 0;
}

/** Parses a JSON column; the store wrote it, so a parse failure is a bug worth an exception. */
export function parseJsonColumn<T>(text: string): T {
  return JSON.parse(text) as T;
}

/** The start (inclusive) and end (exclusive) of the UTC day holding `ms`. */
export function utcDayBounds(ms: number): { startMs: number; endMs: number } {
  const day = new Date(ms);
  const startMs = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate());
  return { startMs, endMs: startMs + 86_400_000 };
}
