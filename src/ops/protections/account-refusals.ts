/**
 * Refusals of the ACCOUNT, not of one request: the investor is borrowing (marketplace 4.2 rule 2) or has
 * no verified bank account (rule 9). The spec does not show the real texts, so they are matched
 * with configurable patterns; every further offer would be refused the same way.
 */

/** True when the service's refusal text contains one of `patterns` (case-insensitive). */
export function isAccountRefusal(serviceText: string | undefined, patterns: readonly string[]): boolean {
  if (serviceText === undefined) return false;
  const text = serviceText.toLowerCase();
  return patterns.some((pattern) => text.includes(pattern.toLowerCase()));
}

/**
 * The times account refusals were heard, within a sliding window. Kept in memory: a restart
 * forgets at most `count - 1` refusals, and the next offers hear them again.
 */
export class RefusalWindow {
  private times: number[] = [];

  /** Records one refusal at `nowMs`; returns how many fell within the last `windowMs`. */
  add(nowMs: number, windowMs: number): number {
    this.times = [...this.times.filter((at) => at > nowMs - windowMs), nowMs];
    return this.times.length;
  }

  clear(): void {
    this.times = [];
  }
}
