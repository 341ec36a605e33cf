/**
 * What the run command and its embedded sandbox process say to each other over the IPC channel,
 * and the daemon's copy of the sandbox's clock.
 */
import type { Clock } from '../../../clock/clock.js';

/** How the run command asks for a sandbox (the first message to the child). */
export interface SandboxStart {
  type: 'start';
  seed: number;
  shape: string;
  speed: number;
  arrivalsPerHour: number;
  initialBalanceCents: number;
  logLevel: string;
  /** Where the sandbox sends its webhooks: the daemon's listener. */
  webhookUrl: string;
}

/** Where the simulated clock stood at a wall-clock instant, and how fast it runs. */
export interface ClockReading {
  atMs: number;
  wallMs: number;
  speed: number;
}

/** `listening`: the daemon's webhook listener is up, so the sandbox may start sending to it. */
export type ToSandbox = SandboxStart | { type: 'listening' } | { type: 'close' };

export type FromSandbox =
  | { type: 'ready'; url: string; apiKey: string; secretKey: string; webhookSecret: string; clock: ClockReading }
  /** The control API moved simulated time by hand: the total of such jumps so far. */
  | { type: 'clock'; jumpedMs: number }
  | { type: 'failed'; message: string };

/** A reading of `clock` taken within one wall-clock millisecond, so the two agree exactly. */
export function readClock(clock: Clock, speed: number): ClockReading {
  for (;;) {
    const wallMs = Date.now();
    const atMs = clock.now();
    if (Date.now() === wallMs) return { atMs, wallMs, speed };
  }
}

/**
 * The sandbox's simulated time, computed in the daemon's process from one reading: it runs
 * `speed` times the wall clock, as the sandbox's own clock does, plus the jumps the sandbox
 * reports. Both processes read the same wall clock, so the two agree to the millisecond.
 */
export class MirrorClock implements Clock {
  private jumpedMs = 0;

  constructor(private readonly reading: ClockReading) {}

  now(): number {
    return Math.floor(this.reading.atMs + this.jumpedMs + (Date.now() - this.reading.wallMs) * this.reading.speed);
  }

  /** The sandbox's time was moved by hand (POST /_sandbox/advance): `jumpedMs` in total. */
  jumped(jumpedMs: number): void {
    this.jumpedMs = jumpedMs;
  }
}
