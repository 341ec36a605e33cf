/**
 * FAST PATH of src/clock/event-queue.ts:EventQueue; equivalence: test/backtest/tune-typed-event-heap.test.ts; change both or neither.
 *
 * The backtest's event queue (src/clock/event-queue.ts) for the column path's replay: the same
 * order (time, then the order events were added) over typed arrays with an integer per event
 * instead of an object, so a trial's hundreds of thousands of cash flows allocate nothing.
 */
export class TypedEventHeap {
  private times = new Float64Array(1024);
  private seqs = new Float64Array(1024);
  private codes = new Int32Array(1024);
  private length = 0;
  private nextSeq = 0;

  /** Empties the heap for the next trial, keeping its arrays. */
  clear(): void {
    this.length = 0;
    this.nextSeq = 0;
  }

  add(atMs: number, code: number): void {
    if (this.length === this.times.length) this.grow();
    const seq = this.nextSeq++;
    const { times, seqs, codes } = this;
    let index = this.length++;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      const parentTime = times[parent] as number;
      if (!(atMs < parentTime || (atMs === parentTime && seq < (seqs[parent] as number)))) break;
      times[index] = parentTime;
      seqs[index] = seqs[parent] as number;
      codes[index] = codes[parent] as number;
      index = parent;
    }
    times[index] = atMs;
    seqs[index] = seq;
    codes[index] = code;
  }

  get size(): number {
    return this.length;
  }

  /** The time of the next event, or +Infinity when none is scheduled. */
  peekTime(): number {
    return this.length === 0 ? Number.POSITIVE_INFINITY : (this.times[0] as number);
  }

  /** The code of the next event (call only when not empty). */
  peekCode(): number {
    return this.codes[0] as number;
  }

  /** Removes the next event. */
  pop(): void {
    const { times, seqs, codes } = this;
    const last = --this.length;
    if (last <= 0) return;
    const time = times[last] as number;
    const seq = seqs[last] as number;
    const code = codes[last] as number;
    let index = 0;
    for (;;) {
      const left = 2 * index + 1;
      if (left >= last) break;
      const right = left + 1;
      let child = left;
      if (right < last) {
        const lt = times[left] as number;
        const rt = times[right] as number;
        if (rt < lt || (rt === lt && (seqs[right] as number) < (seqs[left] as number))) child = right;
      }
      const ct = times[child] as number;
      if (!(ct < time || (ct === time && (seqs[child] as number) < seq))) break;
      times[index] = ct;
      seqs[index] = seqs[child] as number;
      codes[index] = codes[child] as number;
      index = child;
    }
    times[index] = time;
    seqs[index] = seq;
    codes[index] = code;
  }

  private grow(): void {
    const size = this.times.length * 2;
    const times = new Float64Array(size);
    const seqs = new Float64Array(size);
    const codes = new Int32Array(size);
    times.set(this.times);
    seqs.set(this.seqs);
    codes.set(this.codes);
    this.times = times;
    this.seqs = seqs;
    this.codes = codes;
  }
}
