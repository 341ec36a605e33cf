/**
 * Funded loans' fates waiting for the replay to reach the end of their term, when a
 * winner's-curse learner (`pricing.winners_curse`) may be told them. Kept apart from the replay's
 * money events on purpose: a fate told after the last payment must not stretch the replay's span
 * (the annualised return's denominator), and telling one moves no money.
 */
import type { CurseOffer } from '../engine/market/index.js';

export interface RepayFate {
  /** When the learner is told: the end of the loan's term. */
  atMs: number;
  curse: CurseOffer;
  repaid: boolean;
  fundedMs: number;
  /** When the loan defaulted (its first missed instalment), or null. */
  defaultMs: number | null;
}

export class RepayFates {
  /** Ordered by atMs (ties in the order added). */
  private readonly waiting: RepayFate[] = [];

  add(fate: RepayFate): void {
    let index = this.waiting.length;
    while (index > 0 && (this.waiting[index - 1]?.atMs ?? 0) > fate.atMs) index -= 1;
    this.waiting.splice(index, 0, fate);
  }

  /** The fates due by `ms` (all of them for +Infinity), in time order, removed from the queue. */
  takeUntil(ms: number): RepayFate[] {
    let count = 0;
    while (count < this.waiting.length && (this.waiting[count]?.atMs ?? 0) <= ms) count += 1;
    return this.waiting.splice(0, count);
  }
}
