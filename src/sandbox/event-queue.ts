/**
 * The market's agenda: events at simulated times, taken in time order and, at equal times, in
 * the order they were scheduled (so runs are reproducible). A binary heap keeps a long headless
 * export fast.
 */
export interface Scheduled<E> {
  at: number;
  seq: number;
  event: E;
}

export class EventQueue<E> {
  private readonly heap: Array<Scheduled<E>> = [];
  private seq = 0;

  get size(): number {
    return this.heap.length;
  }

  /** Schedules `event` at epoch milliseconds `at`. */
  push(at: number, event: E): void {
    this.heap.push({ at, seq: this.seq++, event });
    this.up(this.heap.length - 1);
  }

  /** The time of the next event, if any. */
  peekTime(): number | undefined {
    return this.heap[0]?.at;
  }

  /** Removes and returns the next event. */
  pop(): Scheduled<E> | undefined {
    const top = this.heap[0];
    const last = this.heap.pop();
    if (top === undefined || last === undefined) return undefined;
    if (this.heap.length > 0) {
      this.heap[0] = last;
      this.down(0);
    }
    return top;
  }

  private before(a: Scheduled<E>, b: Scheduled<E>): boolean {
    return a.at < b.at || (a.at === b.at && a.seq < b.seq);
  }

  private up(index: number): void {
    const heap = this.heap;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      const child = heap[index];
      const above = heap[parent];
      if (!child || !above || !this.before(child, above)) return;
      heap[index] = above;
      heap[parent] = child;
      index = parent;
    }
  }

  private down(index: number): void {
    const heap = this.heap;
    for (;;) {
      const left = index * 2 + 1;
      const right = left + 1;
      let best = index;
      const at = (i: number): Scheduled<E> | undefined => heap[i];
      const bestItem = (): Scheduled<E> | undefined => heap[best];
      const l = at(left);
      const r = at(right);
      const b0 = bestItem();
      if (l && b0 && this.before(l, b0)) best = left;
      const b1 = bestItem();
      if (r && b1 && this.before(r, b1)) best = right;
      if (best === index) return;
      const a = heap[index];
      const c = heap[best];
      if (!a || !c) return;
      heap[index] = c;
      heap[best] = a;
      index = best;
    }
  }
}
