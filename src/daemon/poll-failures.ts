/**
 * Polls that failed in a row, for `/healthz`. A poll that fails (the list cannot be read, or the
 * service fails request after request) leaves the last complete poll where it was, and the poll
 * check only notices once that poll is older than its limit (10 minutes): meanwhile intake of a
 * poll-only set-up is stopped and health said ok. Counting failures says so after a few polls,
 * with the last error as the reason. A poll ended by shutdown is neither a failure nor a success.
 */
import type { Clock } from '../clock/clock.js';

/** How many failed polls in a row `/healthz` reports as degraded (poll.failures_before_degraded). */
export const DEFAULT_MAX_FAILED_POLLS = 3;

// The reason is one line of a health answer, not a log: a long service text is cut.
const MAX_REASON_CHARS = 300;

/** The polls failed since the last one that succeeded. */
export interface FailedPolls {
  inRow: number;
  /** The last failure's message. */
  reason: string;
  /** When the first of them failed (the clock's ms). */
  sinceMs: number;
  /** The marketplace was already failing when the daemon started: degraded until a poll succeeds. */
  atStart?: boolean;
}

export class PollFailures {
  private failures: FailedPolls | undefined;

  constructor(private readonly clock: Clock) {}

  succeeded(): void {
    this.failures = undefined;
  }

  failed(error: unknown): void {
    const text = error instanceof Error ? error.message : String(error);
    const reason = text.length > MAX_REASON_CHARS ? `${text.slice(0, MAX_REASON_CHARS)}...` : text;
    this.failures = {
      inRow: (this.failures?.inRow ?? 0) + 1,
      reason,
      sinceMs: this.failures?.sinceMs ?? this.clock.now(),
      ...(this.failures?.atStart === true ? { atStart: true } : {}),
    };
  }

  /**
   * The start-up read failed (the daemon started anyway): degraded from now until a poll succeeds.
   * Without it a daemon restarted into an outage said ok until its third failed poll, a minute or
   * more after the warning that said it was degraded.
   */
  failedAtStart(error: unknown): void {
    const text = error instanceof Error ? error.message : String(error);
    const reason = `the marketplace was failing at start: ${text}`;
    this.failures = {
      inRow: 0,
      reason: reason.length > MAX_REASON_CHARS ? `${reason.slice(0, MAX_REASON_CHARS)}...` : reason,
      sinceMs: this.clock.now(),
      atStart: true,
    };
  }

  /** The failures since the last successful poll; undefined when the last poll succeeded. */
  current(): FailedPolls | undefined {
    return this.failures;
  }
}
