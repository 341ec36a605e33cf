import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/clock.js';
import { Backoff } from '../../src/clock/backoff.js';

describe('Backoff', () => {
  it('doubles the wait per failure up to the cap, with equal jitter, and forgets on success', () => {
    const clock = new ManualClock(0);
    let jitter = 0;
    const backoff = new Backoff<string>(clock, { baseMs: 1000, maxMs: 5000 }, () => jitter);
    expect(backoff.ready('a')).toBe(true);
    // No jitter: half the ceiling; full jitter (just under 1): the whole ceiling.
    expect(backoff.failed('a')).toEqual({ failures: 1, delayMs: 500, retryAtMs: 500 });
    jitter = 0.999;
    expect(backoff.failed('a').delayMs).toBe(1999);
    jitter = 0;
    expect(backoff.failed('a').delayMs).toBe(2000);
    expect(backoff.failed('a').delayMs).toBe(2500); // capped at 5000
    expect(backoff.failed('a').delayMs).toBe(2500);
    expect(backoff.ready('a')).toBe(false);
    expect(backoff.ready('b')).toBe(true);
    clock.advance(2499);
    expect(backoff.ready('a')).toBe(false);
    clock.advance(1);
    expect(backoff.ready('a')).toBe(true);
    backoff.succeeded('a');
    expect(backoff.step('a')).toBeUndefined();
    expect(backoff.failed('a').failures).toBe(1);
  });
});
