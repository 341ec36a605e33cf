/**
 * Lengths of time in milliseconds, defined once for all of `src/` (the clock's unit). Plain UTC
 * arithmetic: a day here is always 24 hours, which is what every caller means (no calendar days).
 */
export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;
