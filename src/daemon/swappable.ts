/**
 * A value hot reload may replace while the daemon runs (the strategies and the risk limits).
 * Everything reads it through `get()` at the moment it needs it, so nobody keeps a stale copy,
 * and `swap` is the one place it changes (the daemon swaps between two requests, never during one).
 */
export class Swappable<T> {
  constructor(private value: T) {}

  get(): T {
    return this.value;
  }

  swap(next: T): void {
    this.value = next;
  }
}
