import { describe, expect, it } from 'vitest';
import { addMonthsUtc, monthStartMs } from '../../src/clock/utc-month.js';

/** The reference: a fresh Date every time. */
const reference = (ms: number) => Date.UTC(new Date(ms).getUTCFullYear(), new Date(ms).getUTCMonth(), 1);

describe('monthStartMs', () => {
  it('gives the start of the UTC month, however the calls jump between months', () => {
    const times = [
      '2026-03-10T12:00:00Z',
      '2026-03-31T23:59:59.999Z',
      '2026-04-01T00:00:00Z',
      '2026-03-01T00:00:00Z',
      '2026-02-28T23:59:59.999Z',
      '2024-02-29T12:00:00Z',
      '2026-12-31T23:59:59.999Z',
      '2027-01-01T00:00:00Z',
      '1969-12-31T23:59:59.999Z',
    ].map((text) => Date.parse(text));
    for (const ms of [...times, ...times.toReversed(), ...times]) expect(monthStartMs(ms), new Date(ms).toISOString()).toBe(reference(ms));
    expect(monthStartMs(Date.parse('2026-03-31T23:59:59.999Z'))).toBe(Date.parse('2026-03-01T00:00:00Z'));
    expect(monthStartMs(Date.parse('2026-04-01T00:00:00Z'))).toBe(Date.parse('2026-04-01T00:00:00Z'));
  });

  it('is NaN for a time that is not one, without remembering it', () => {
    expect(monthStartMs(Number.NaN)).toBeNaN();
    expect(monthStartMs(Date.parse('2026-05-05T00:00:00Z'))).toBe(Date.parse('2026-05-01T00:00:00Z'));
  });
});

describe('calendar months', () => {
  it('keeps the day, clamped to the end of shorter months', () => {
    expect(new Date(addMonthsUtc(Date.parse('2026-01-31T10:00:00Z'), 1)).toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(new Date(addMonthsUtc(Date.parse('2026-11-15T00:00:00Z'), 3)).toISOString()).toBe('2027-02-15T00:00:00.000Z');
  });
});
