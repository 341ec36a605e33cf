/**
 * The sandbox's simulated time. Timer-driven: simulated time runs `speed` times faster than the
 * wall clock from the start, plus any jumps the control API makes. Manual: time moves only
 * through `advance` (tests).
 */
import { ManualClock, type Clock } from '../clock/clock.js';

/** A clock the control API can move forward. */
export interface DrivenClock extends Clock {
  advance(ms: number): void;
}

export class SpeedClock implements DrivenClock {
  private readonly wallStart: number;
  private jumped = 0;

  constructor(
    private readonly wall: Clock,
    private readonly startMs: number,
    private readonly speed: number,
  ) {
    this.wallStart = wall.now();
  }

  now(): number {
    return Math.floor(this.startMs + this.jumped + (this.wall.now() - this.wallStart) * this.speed);
  }

  advance(ms: number): void {
    if (ms < 0) throw new RangeError(`a clock cannot go backwards (advance ${ms} ms)`);
    this.jumped += ms;
  }
}

/** A manual clock (time moves only when told). */
export function manualDrivenClock(startMs: number): DrivenClock {
  return new ManualClock(startMs);
}
