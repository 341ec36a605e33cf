/**
 * Exponential back-off with jitter, per key (a webhook event, a scheduled job). A failure that
 * repeats (the service refusing our credentials or clock, a list answering 4xx, a non-JSON answer)
 * must not become a request storm: each key waits base x 2^(failures-1), capped, before it is
 * tried again, and a success forgets it. Time comes from the injected clock.
 */
import type { Clock } from './clock.js';

export interface BackoffSettings {
  /** Wait after the first failure. */
  baseMs: number;
  /** Longest wait, however many failures. */
  maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffSettings = { baseMs: 5_000, maxMs: 10 * 60_000 };

export interface BackoffStep {
  /** Failures in a row, this one included. */
  failures: number;
  delayMs: number;
  /** When the key may be tried again (clock milliseconds). */
  retryAtMs: number;
}

/** The longest wait after `failures` failures in a row: base x 2^(failures-1), capped. */
export function backoffCeilingMs(failures: number, settings: BackoffSettings): number {
  return Math.min(settings.maxMs, settings.baseMs * 2 ** Math.min(Math.max(failures, 1) - 1, 30));
}

/**
 * A wait of at most `ceilingMs`, "equal jitter": at least half of it, so keys (or retries) that
 * failed together spread out but never bunch at zero. `random` is a number in [0, 1).
 */
export function equalJitterMs(ceilingMs: number, random: number): number {
  return Math.round(ceilingMs / 2 + (ceilingMs / 2) * random);
}

export class Backoff<K> {
  private readonly steps = new Map<K, BackoffStep>();

  constructor(
    private readonly clock: Clock,
    private readonly settings: BackoffSettings = DEFAULT_BACKOFF,
    /** A number in [0, 1) for jitter; injectable so tests are deterministic. */
    private readonly random: () => number = Math.random,
  ) {}

  /** Records a failure of `key` and says how long it now waits. */
  failed(key: K): BackoffStep {
    const failures = (this.steps.get(key)?.failures ?? 0) + 1;
    const delayMs = equalJitterMs(backoffCeilingMs(failures, this.settings), this.random());
    const step = { failures, delayMs, retryAtMs: this.clock.now() + delayMs };
    this.steps.set(key, step);
    return step;
  }

  /** Forgets the failures of `key`. */
  succeeded(key: K): void {
    this.steps.delete(key);
  }

  /** Whether `key` may be tried now (never failed, or its wait is over). */
  ready(key: K): boolean {
    const step = this.steps.get(key);
    return step === undefined || this.clock.now() >= step.retryAtMs;
  }

  /** The current step of `key`, if it is backing off. */
  step(key: K): BackoffStep | undefined {
    return this.steps.get(key);
  }

  get size(): number {
    return this.steps.size;
  }
}
