/**
 * Offers told together: while offer notifications of one kind (placed, funded) wait for the
 * chat's turn, the next one joins them instead of queueing a message of its own, and one message
 * says how many, for how much, at which rates and on which requests (the first few named).
 * Its size is fixed however many join: the count, the sums and at most NAMED_REQUESTS ids.
 */
import type { NotificationEvent } from '../../domain/index.js';

/** The offer events told as a group when several wait. Proposals are not: each needs a person's approval. */
export const GROUPED_EVENTS: ReadonlySet<NotificationEvent> = new Set(['offer_placed', 'offer_funded']);

/** Loan requests named in a group's message; the rest are counted. */
const NAMED_REQUESTS = 5;

export class OfferGroup {
  private count = 0;
  private first: Record<string, unknown> = {};
  private totalCents = 0;
  private lowestRate = Number.POSITIVE_INFINITY;
  private highestRate = Number.NEGATIVE_INFINITY;
  private readonly named: string[] = [];
  private readonly byRiskLevel = new Map<number, number>();

  add(data: Record<string, unknown>): void {
    if (this.count === 0) this.first = data;
    this.count += 1;
    if (typeof data.total_amount_cents === 'number') this.totalCents += data.total_amount_cents;
    if (typeof data.rate === 'number') {
      this.lowestRate = Math.min(this.lowestRate, data.rate);
      this.highestRate = Math.max(this.highestRate, data.rate);
    }
    if (this.named.length < NAMED_REQUESTS && data.loan_request_id !== undefined) this.named.push(String(data.loan_request_id));
    if (typeof data.risk_level === 'number') this.byRiskLevel.set(data.risk_level, (this.byRiskLevel.get(data.risk_level) ?? 0) + 1);
  }

  get size(): number {
    return this.count;
  }

  /** One offer's own data as it came; several as the group's figures (`offers` says how many). */
  data(): Record<string, unknown> {
    if (this.count <= 1) return this.first;
    const more = this.count - this.named.length;
    const levels = [...this.byRiskLevel.entries()].sort(([a], [b]) => a - b);
    return {
      offers: this.count,
      loan_request_ids: `${this.named.join(', ')}${more > 0 ? ` and ${more} more` : ''}`,
      total_amount_cents: this.totalCents,
      ...(Number.isFinite(this.lowestRate) ? { lowest_rate: this.lowestRate, highest_rate: this.highestRate } : {}),
      ...(levels.length === 0 ? {} : { offers_by_risk_level: levels.map(([level, n]) => `${n} at ${level}`).join(', ') }),
    };
  }
}
