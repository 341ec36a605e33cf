/**
 * The column path's event heap (src/backtest/tune/typed-event-heap.ts) must take events in the
 * very order the backtest's queue (src/clock/event-queue.ts) takes them: by time, and at equal
 * times in the order added. Both get the same random mix of adds and takes, with many equal
 * times, past the heap's first growth, and after a clear.
 */
import { describe, expect, it } from 'vitest';
import { EventQueue } from '../../src/clock/event-queue.js';
import { TypedEventHeap } from '../../src/backtest/tune/typed-event-heap.js';
import { seededRandom } from '../../src/engine/market/seeded-normals.js';

/** Runs `steps` random operations on both and returns what each took, as [time, code] pairs. */
function takenByBoth(heap: TypedEventHeap, seed: number, steps: number): { heap: number[][]; queue: number[][] } {
  const random = seededRandom(seed);
  const queue = new EventQueue<number>();
  const taken = { heap: [] as number[][], queue: [] as number[][] };
  let now = 0;
  for (let step = 0; step < steps; step += 1) {
    if (random() < 0.6 || queue.size === 0) {
      // Times on a coarse grid so that many events share one; never before the last taken.
      const atMs = now + Math.floor(random() * 8) * 1000;
      const code = Math.floor(random() * 1_000_000);
      heap.add(atMs, code);
      queue.add(atMs, code);
    } else {
      expect(heap.size).toBe(queue.size);
      expect(heap.peekTime()).toBe(queue.peekTime());
      const code = heap.peekCode();
      const time = heap.peekTime();
      heap.pop();
      const event = queue.pop();
      taken.heap.push([time, code]);
      taken.queue.push([event?.atMs ?? Number.NaN, event?.event ?? Number.NaN]);
      now = time;
    }
  }
  while (queue.size > 0) {
    taken.heap.push([heap.peekTime(), heap.peekCode()]);
    heap.pop();
    const event = queue.pop();
    taken.queue.push([event?.atMs ?? Number.NaN, event?.event ?? Number.NaN]);
  }
  expect(heap.size).toBe(0);
  expect(heap.peekTime()).toBe(Number.POSITIVE_INFINITY);
  return taken;
}

describe('TypedEventHeap', () => {
  it('takes events in the order EventQueue takes them, equal times in the order added', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const taken = takenByBoth(new TypedEventHeap(), seed, 6_000);
      expect(taken.heap.length).toBeGreaterThan(2_000);
      expect(taken.heap).toEqual(taken.queue);
    }
  });

  it('keeps that order past its first growth and after a clear', () => {
    const heap = new TypedEventHeap();
    // Well past the 1,024 events the heap starts with, all at a handful of times, then dropped.
    for (let i = 0; i < 3_000; i += 1) heap.add((i % 5) * 1000, i);
    expect(heap.size).toBe(3_000);
    heap.clear();
    expect(heap.size).toBe(0);
    // Mostly adds: about 4,000 events held at once.
    const again = takenByBoth(heap, 8, 10_000);
    expect(again.heap).toEqual(again.queue);
  });
});
