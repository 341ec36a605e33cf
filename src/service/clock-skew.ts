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

  /**
   * Learns the offset from the `Date` of an answer that refused our timestamp. Returns true when
   * a new offset was taken, so one more attempt with the corrected time is worth making.
   */
  learn(serverDateMs: number | undefined, where: { method: string; path: string }): boolean {
    if (!this.settings.correct || serverDateMs === undefined) return false;
    const offset = Math.floor(serverDateMs / 1000) - unixSeconds(this.clock);
    if (Math.abs(offset) > this.settings.maxSkewSeconds) {
      this.log.warn(
        { ...where, offsetSeconds: offset, maxSkewSeconds: this.settings.maxSkewSeconds },
        `clock skew of ${offset} s to the marketplace is beyond LENDBOT_MAX_CLOCK_SKEW_SECONDS; not corrected: fix the machine's clock`,
      );
      return false;
    }
    // The same offset again: signing with it was already refused, another attempt would be too.
    if (offset === this.offsetSeconds) return false;
    this.log.warn(
      { ...where, offsetSeconds: offset, previousOffsetSeconds: this.offsetSeconds },
      `clock skew: the marketplace's clock is ${offset} s from ours; signing with the corrected time`,
    );
    this.offsetSeconds = offset;
    return true;
  }
}
