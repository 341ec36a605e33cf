/**
 * Runs async jobs one at a time, in arrival order. The pipeline uses it so that two requests
 * never pass the guard against the same balance snapshot (two offers each "fitting" a balance
 * that can only pay for one).
 */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();
  private pending = 0;

  run<T>(job: () => Promise<T>): Promise<T> {
    this.pending += 1;
    const result = this.tail.then(job).finally(() => {
      this.pending -= 1;
    });
    // The chain must survive a failed job; the failure still reaches this job's caller.
    this.tail = result.catch(() => undefined);
    return result;
  }

  /** Jobs queued or running. */
  get size(): number {
    return this.pending;
  }

  /** Resolves when every job queued so far has finished. */
  async idle(): Promise<void> {
    while (this.pending > 0) await this.tail;
  }
}
