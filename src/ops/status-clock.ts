/**
 * Which clock a database's times were written in. A sandbox run stamps every row with the
 * simulated clock (a day a second, starting wherever the market starts), so `lendbot status`
 * read against this machine's clock afterwards would say "last poll 300 days ago" and count no
 * offers "today". The daemon records its clock in the state table (at start, every second while
 * the clock is simulated, and at stop); status reads every time in that clock and says which.
 */
import type { Clock } from '../clock/clock.js';
import { isoFromMs, msFromIso, type StateRepository } from '../store/index.js';

export const CLOCK_KEY = 'clock';
/** How often a simulated clock's reading is refreshed (real time): a cron with seconds. */
export const CLOCK_RECORD_SCHEDULE = '* * * * * *';
// A reading older than this (real time) means the daemon is no longer running.
const RUNNING_WITHIN_MS = 5_000;
// A daemon clock this close to the wall clock at speed 1 is the wall clock.
const SAME_CLOCK_WITHIN_MS = 60_000;

/** The clock status reports in. */
export interface StatusClock {
  kind: 'wall' | 'simulated';
  /** Simulated seconds per real second (1 for the wall clock). */
  speed: number;
  /** Simulated: whether the daemon writing in it is still running (its clock still moves). */
  running: boolean | null;
  /** Simulated: the wall-clock time of the last reading. */
  readAtWall: string | null;
}

interface ClockRecord {
  kind: 'wall' | 'simulated';
  speed: number;
  at: string;
  wall_at: string;
  /** The daemon's last reading, written as it stopped. */
  stopped: boolean;
}

/** Writes the daemon's clock readings into the state table. */
export class ClockRecorder {
  readonly kind: 'wall' | 'simulated';

  constructor(
    private readonly state: StateRepository,
    private readonly clock: Clock,
    private readonly wall: Clock,
    private readonly speed: number,
  ) {
    const apart = Math.abs(clock.now() - wall.now());
    this.kind = speed === 1 && apart <= SAME_CLOCK_WITHIN_MS ? 'wall' : 'simulated';
  }

  /** Records a reading; `stopped` on the daemon's last one. */
  record(stopped = false): void {
    const atMs = this.clock.now();
    const value: ClockRecord = { kind: this.kind, speed: this.speed, at: isoFromMs(atMs), wall_at: isoFromMs(this.wall.now()), stopped };
    this.state.set(CLOCK_KEY, JSON.stringify(value), atMs);
  }
}

function readRecord(state: StateRepository): ClockRecord | undefined {
  const text = state.get(CLOCK_KEY);
  if (text === undefined) return undefined;
  try {
    const value = JSON.parse(text) as Partial<ClockRecord>;
    if ((value.kind !== 'wall' && value.kind !== 'simulated') || typeof value.speed !== 'number') return undefined;
    if (typeof value.at !== 'string' || typeof value.wall_at !== 'string' || typeof value.stopped !== 'boolean') return undefined;
    return value as ClockRecord;
  } catch {
    return undefined;
  }
}

/**
 * Now, in the clock the database was written in: the wall clock for a live daemon (or a file
 * with no record); for a simulated clock, its last reading moved on at its speed while the
 * daemon still runs, or where it stopped once it has stopped.
 */
export function statusClock(state: StateRepository, wallNowMs: number): { nowMs: number; clock: StatusClock } {
  const record = readRecord(state);
  if (record === undefined || record.kind === 'wall') {
    return { nowMs: wallNowMs, clock: { kind: 'wall', speed: 1, running: null, readAtWall: null } };
  }
  const atMs = msFromIso(record.at);
  const wallAtMs = msFromIso(record.wall_at);
  const sinceReadingMs = Math.max(0, wallNowMs - wallAtMs);
  // A daemon that crashed wrote no last reading: its readings just stop coming.
  const running = !record.stopped && sinceReadingMs <= RUNNING_WITHIN_MS;
  return {
    nowMs: running ? atMs + Math.round(sinceReadingMs * record.speed) : atMs,
    clock: { kind: 'simulated', speed: record.speed, running, readAtWall: record.wall_at },
  };
}

/** One line for people: which clock, and for a simulated one whether it still moves. */
export function describeClock(clock: StatusClock): string {
  if (clock.kind === 'wall') return "this machine's clock";
  const pace = `simulated, ${clock.speed}x (the sandbox run's clock); every time here is in it`;
  return clock.running ? `${pace}, still running` : `${pace}, stopped at ${clock.readAtWall ?? '?'} by this machine's clock`;
}
