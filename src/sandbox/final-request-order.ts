/**
 * The order of a headless export's lines. The export writes one line per request, in the order
 * the requests arrived, but requests become final out of that order: a 24-month loan keeps its
 * request's outcome open for two years while requests after it close within days. This holds a
 * final request until every earlier one has been written, keeping only what its line needs
 * besides the request itself (which the export generates again from the seed): its id, when it was
 * created and its outcome. So what waits is a few hundred bytes a request, for at most the
 * arrivals of the longest loan's life, however many requests the export writes.
 */
import type { Outcome } from '../recording/index.js';

export interface FinalRequest {
  id: number;
  createdMs: number;
  outcome: Outcome;
}

export class FinalRequestOrder {
  private readonly waiting = new Map<number, FinalRequest>();
  private next: number | undefined;

  /** Hears of each new request, in arrival order; the first one's id is where the lines start. */
  arrived(id: number): void {
    this.next ??= id;
  }

  /** A request whose outcome is final. */
  add(request: FinalRequest): void {
    this.waiting.set(request.id, request);
  }

  /** Final requests waiting for an earlier one. */
  get size(): number {
    return this.waiting.size;
  }

  /** Takes the final requests whose every earlier request was taken, in order (ids follow one by one). */
  *takeReady(): Generator<FinalRequest> {
    for (let request = this.peek(); request !== undefined; request = this.peek()) {
      this.waiting.delete(request.id);
      this.next = request.id + 1;
      yield request;
    }
  }

  private peek(): FinalRequest | undefined {
    return this.next === undefined ? undefined : this.waiting.get(this.next);
  }
}
