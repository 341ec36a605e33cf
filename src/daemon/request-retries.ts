/**
 * Requests the pipeline could not decide yet because fetching their data failed: each waits its
 * own back-off, so one request whose answers keep failing is never in front of the others (every
 * poll and every inbox pass would otherwise try it first, and stop at it).
 *
 * Two kinds of failure:
 * - the request's own (an answer lendbot cannot read, a status that belongs to that call: see
 *   `isRequestOwnFailure`): after `tries` attempts the last one decides without that data (the
 *   strategy then offers without it or skips, and the decision says why), so such a request is
 *   decided in bounded time and never asked about for ever;
 * - an outage (5xx, a timeout, throttling, refused credentials): the request waits its back-off
 *   and is decided when the service answers again, never blind; these do not count toward `tries`.
 *
 * Kept in memory (a restart starts the count again: tries stay bounded per run) and bounded: past
 * MAX_KEPT requests the oldest entry is forgotten, which only gives that request fresh tries.
 */
import { backoffCeilingMs, type BackoffSettings } from '../clock/backoff.js';
import type { Clock } from '../clock/clock.js';

/** The wait doubles after each failure, from baseMs up to maxMs. */
export interface RequestRetrySettings extends BackoffSettings {
  /** Attempts of a request whose own answers fail; the last decides without the data. */
  tries: number;
}

/** 30 s, 1 min, 2 min, then the fourth attempt decides without the data (about 3.5 minutes). */
const DEFAULT_REQUEST_RETRY: RequestRetrySettings = { baseMs: 30_000, maxMs: 10 * 60_000, tries: 4 };

const MAX_KEPT = 10_000;

interface Failures {
  /** Failures of the request's own (they count toward `tries`). */
  own: number;
  /** Failures in a row of either kind (they set the wait). */
  inRow: number;
  retryAtMs: number;
  lastError: string;
}

export interface RetryStep {
  own: number;
  retryAtMs: number;
  delayMs: number;
}

export class RequestRetries {
  private readonly failures = new Map<number, Failures>();

  constructor(
    private readonly clock: Clock,
    private readonly settings: RequestRetrySettings = DEFAULT_REQUEST_RETRY,
  ) {}

  /** When the request may be tried again, if it is waiting now. */
  waitingUntil(loanRequestId: number): number | undefined {
    const entry = this.failures.get(loanRequestId);
    return entry !== undefined && this.clock.now() < entry.retryAtMs ? entry.retryAtMs : undefined;
  }

  /** Whether this attempt is the last one for the request's own failures: it decides without the data. */
  lastTry(loanRequestId: number): boolean {
    return (this.failures.get(loanRequestId)?.own ?? 0) >= this.settings.tries - 1;
  }

  /** The failures of the request's own so far, and the last error's text (for the final reason). */
  history(loanRequestId: number): { own: number; lastError: string } | undefined {
    const entry = this.failures.get(loanRequestId);
    return entry === undefined ? undefined : { own: entry.own, lastError: entry.lastError };
  }

  /** Notes a failed attempt; `own` when the failure belongs to the request. */
  failed(loanRequestId: number, own: boolean, error: string): RetryStep {
    const before = this.failures.get(loanRequestId);
    const inRow = (before?.inRow ?? 0) + 1;
    const delayMs = backoffCeilingMs(inRow, this.settings);
    const entry: Failures = { own: (before?.own ?? 0) + (own ? 1 : 0), inRow, retryAtMs: this.clock.now() + delayMs, lastError: error };
    // Re-inserted, so the map's order is the order of last failure and the oldest goes first.
    this.failures.delete(loanRequestId);
    this.failures.set(loanRequestId, entry);
    if (this.failures.size > MAX_KEPT) {
      const oldest = this.failures.keys().next();
      if (oldest.done !== true) this.failures.delete(oldest.value);
    }
    return { own: entry.own, retryAtMs: entry.retryAtMs, delayMs };
  }

  /** The request was decided: nothing more to wait for. */
  forget(loanRequestId: number): void {
    this.failures.delete(loanRequestId);
  }

  get size(): number {
    return this.failures.size;
  }
}
