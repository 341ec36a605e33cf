// Which clock `lendbot status` reads a database in (src/ops/status-clock.ts), from the readings a
// daemon records: a live daemon's wall clock, a sandbox run's simulated clock running or stopped,
// and a crashed run whose readings just stop.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/clock.js';
import { ClockRecorder, describeClock, statusClock } from '../../src/ops/status-clock.js';
import { tempStore } from '../store/fixtures.js';

const WALL = Date.parse('2026-11-23T12:00:00.000Z');
const SIM = Date.parse('2031-06-01T06:00:00.000Z');
let h: ReturnType<typeof tempStore>;
beforeEach(() => {
  h = tempStore();
});
afterEach(() => h.cleanup());

describe('status clock', () => {
  it('is the wall clock for a file with no reading, and for a live daemon', () => {
    expect(statusClock(h.store.state, WALL)).toEqual({ nowMs: WALL, clock: { kind: 'wall', speed: 1, running: null, readAtWall: null } });
    const wall = new ManualClock(WALL);
    const recorder = new ClockRecorder(h.store.state, wall, wall, 1);
    expect(recorder.kind).toBe('wall');
    recorder.record(true);
    expect(statusClock(h.store.state, WALL + 3_600_000).nowMs).toBe(WALL + 3_600_000);
    expect(describeClock(statusClock(h.store.state, WALL).clock)).toBe("this machine's clock");
  });

  it('follows a running simulated clock at its speed, and stops where the run stopped', () => {
    const wall = new ManualClock(WALL);
    const sim = new ManualClock(SIM);
    const recorder = new ClockRecorder(h.store.state, sim, wall, 3600);
    expect(recorder.kind).toBe('simulated');
    recorder.record();
    // Two real seconds after the reading, two simulated hours later.
    expect(statusClock(h.store.state, WALL + 2000)).toEqual({
      nowMs: SIM + 7_200_000,
      clock: { kind: 'simulated', speed: 3600, running: true, readAtWall: '2026-11-23T12:00:00.000Z' },
    });
    sim.advance(3_600_000);
    wall.advance(1000);
    recorder.record(true);
    const stopped = statusClock(h.store.state, WALL + 60_000);
    expect(stopped.nowMs).toBe(SIM + 3_600_000);
    expect(stopped.clock.running).toBe(false);
    expect(describeClock(stopped.clock)).toBe(
      "simulated, 3600x (the sandbox run's clock); every time here is in it, stopped at 2026-11-23T12:00:01.000Z by this machine's clock",
    );
  });

  it('counts a run whose readings stopped coming (a crash) as stopped at its last reading', () => {
    const wall = new ManualClock(WALL);
    new ClockRecorder(h.store.state, new ManualClock(SIM), wall, 86_400).record();
    expect(statusClock(h.store.state, WALL + 4000).clock.running).toBe(true);
    expect(statusClock(h.store.state, WALL + 6000)).toMatchObject({ nowMs: SIM, clock: { running: false } });
  });

  it('calls a sandbox clock at speed 1 simulated when it reads another time than the wall clock', () => {
    expect(new ClockRecorder(h.store.state, new ManualClock(SIM), new ManualClock(WALL), 1).kind).toBe('simulated');
  });
});
