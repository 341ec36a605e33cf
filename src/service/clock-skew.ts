/**
 * Clock-skew correction. Signatures are valid for 5 minutes around the service's clock (spec
 * part 5), so a machine whose clock is off by more is refused with "Timestamp out of range" on
 * every call. When that happens we read the service's time from the answer's `Date` header, keep
 * the difference (whole seconds, service minus us) and sign with our clock plus that offset from
 * then on. Offsets beyond a maximum are not trusted: a clock that far off needs an operator.
 */
import { unixSeconds, type Clock } from '../clock/clock.js';
import type { Logger } from '../log/logger.js';

export interface ClockSkewSettings {
  /** Learn an offset from the service's Date header after "Timestamp out of range" (LENDBOT_CLOCK_SKEW_CORRECTION). */
  correct: boolean;
  /** Offsets larger than this, either way, are not applied (LENDBOT_MAX_CLOCK_SKEW_SECONDS). */
  maxSkewSeconds: number;
}

export const DEFAULT_CLOCK_SKEW: ClockSkewSettings = { correct: true, maxSkewSeconds: 3600 };

/** Our estimate of the service's clock: the injected clock plus a learnt offset. */
export class ServiceClock {
  /** Seconds to add to our clock to get the service's (0 until a correction). */
  private offsetSeconds = 0;

  constructor(
    private readonly clock: Clock,
    private readonly settings: ClockSkewSettings,
    private readonly log: Logger,
  ) {}

  /** The service's time now, in Unix seconds: what X-Timestamp carries. */
  nowSeconds(): number {
    return unixSeconds(this.clock) + this.offsetSeconds;
  }

  /** The service's time now, in milliseconds (for Retry-After dates, which are in its time). */
  nowMs(): number {
    return this.clock.now() + this.offsetSeconds * 1000;
  }

  /** The offset in use now; an attempt signed now is signed with it (pass it back to `learn`). */
  currentOffsetSeconds(): number {
    return this.offsetSeconds;
  }

  /**
   * Learns the offset from the `Date` of an answer that refused a timestamp signed with
   * `signedWithOffset`. Returns true when signing again with the offset now in use is worth it:
   * it differs from the one refused. Calls run concurrently, so another call may have learnt the
   * offset already; then this one signs again too, without a second log line.
   */
  learn(serverDateMs: number | undefined, signedWithOffset: number, where: { method: string; path: string }): boolean {
    if (!this.settings.correct || serverDateMs === undefined) return false;
    const offset = Math.floor(serverDateMs / 1000) - unixSeconds(this.clock);
    if (Math.abs(offset) > this.settings.maxSkewSeconds) {
      this.log.warn(
        { ...where, offsetSeconds: offset, maxSkewSeconds: this.settings.maxSkewSeconds },
        `clock skew of ${offset} s to the marketplace is beyond LENDBOT_MAX_CLOCK_SKEW_SECONDS; not corrected: fix the machine's clock`,
      );
      return false;
    }
    // The offset this attempt was signed with was refused: signing with it again would be too.
    if (sameOffset(offset, signedWithOffset)) return false;
    if (!sameOffset(offset, this.offsetSeconds)) {
      this.log.warn(
        { ...where, offsetSeconds: offset, previousOffsetSeconds: this.offsetSeconds },
        `clock skew: the marketplace's clock is ${offset} s from ours; signing with the corrected time`,
      );
      this.offsetSeconds = offset;
    }
    return true;
  }
}

/**
 * A `Date` header has whole seconds, so two answers in the same instant can differ by one: such
 * offsets are the same skew (the service allows 5 minutes), not a change to log and apply.
 */
function sameOffset(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1;
}
