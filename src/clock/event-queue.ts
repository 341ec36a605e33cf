/**
 * Events at simulated times, taken in time order and, at equal times, in the order they were
 * added, so a run is reproducible. The sandbox's market agenda and the backtest's cash flows
 * (decisions, instalments, losses, expiries) both use it. A binary heap: a 100,000-request
 * replay schedules over a million events.
 *
 * The reference of a fast path: tuning's column replay uses TypedEventHeap
 * (src/backtest/tune/typed-event-heap.ts), the same order over typed arrays; change both or neither.
 */
export interface Scheduled<T> {
  atMs: number;
  seq: number;
  event: T;
}

export class EventQueue<T> {
  private readonly heap: Array<Scheduled<T>> = [];
  private nextSeq = 0;

  get size(): number {
    return this.heap.length;
  }

  add(atMs: number, event: T): void {
    const item = { atMs, seq: this.nextSeq++, event };
    const heap = this.heap;
    heap.push(item);
    let index = heap.length - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      const above = heap[parent];
      if (above === undefined || !before(item, above)) break;
      heap[index] = above;
      index = parent;
    }
    heap[index] = item;
  }

  /** The time of the next event, or +Infinity when none is scheduled. */
  peekTime(): number {
    return this.heap[0]?.atMs ?? Number.POSITIVE_INFINITY;
  }

  /** Removes and returns the next event. */
  pop(): Scheduled<T> | undefined {
    const heap = this.heap;
    const top = heap[0];
    const last = heap.pop();
    if (top === undefined || last === undefined || heap.length === 0) return top;
    let index = 0;
    for (;;) {
      const left = 2 * index + 1;
      const right = left + 1;
      let smallest = last;
      let at = -1;
      const l = heap[left];
      if (l !== undefined && before(l, smallest)) [smallest, at] = [l, left];
      const r = heap[right];
      if (r !== undefined && before(r, smallest)) [smallest, at] = [r, right];
      if (at < 0) break;
      heap[index] = smallest;
      index = at;
    }
    heap[index] = last;
    return top;
  }
}

function before<T>(a: Scheduled<T>, b: Scheduled<T>): boolean {
  return a.atMs < b.atMs || (a.atMs === b.atMs && a.seq < b.seq);
}
