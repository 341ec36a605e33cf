/**
 * Time for everything in lendbot comes from a Clock, never from Date.now() directly, so the
 * sandbox, the backtester and tests can run on simulated time.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

/** The real wall clock. */
export const systemClock: Clock = {
  now: () => Date.now(),
};

/** A clock that only moves when told to; for tests and simulations. */
export class ManualClock implements Clock {
  private current: number;

  constructor(start: number | Date | string = '2026-01-01T00:00:00Z') {
    this.current = typeof start === 'number' ? start : new Date(start).getTime();
  }

  now(): number {
    return this.current;
  }

  /** Moves the clock forward by `ms` milliseconds. */
  advance(ms: number): void {
    if (ms < 0) throw new RangeError(`a clock cannot go backwards (advance ${ms} ms)`);
    this.current += ms;
  }

  /** Sets the clock to an absolute time; it may not go backwards. */
  set(to: number | Date | string): void {
    const next = typeof to === 'number' ? to : new Date(to).getTime();
    if (next < this.current) throw new RangeError('a clock cannot go backwards');
    this.current = next;
  }
}

/** Unix time in whole seconds, as the service's X-Timestamp header wants it. */
export function unixSeconds(clock: Clock): number {
  return Math.floor(clock.now() / 1000);
}

/** Waits `ms` real milliseconds. Injected where code waits, so tests can record the waits. */
export type Sleep = (ms: number) => Promise<void>;

export const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Real waits that do not hold the process open: a stop never waits for one (a chat's turn, a start-up check's budget). */
export const sleepNotHoldingExit: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms).unref());
