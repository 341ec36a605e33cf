/**
 * The spend ledger one request is decided with. A purchase that cost something is written at
 * once: the monthly budget reads it back, and a crash must not forget money spent. A free one
 * (banking data, a flat-priced provider) only carries what was bought, for reports and
 * recordings; it waits until the offer went out (or was not made), so redacting and storing its
 * payload is not on the way to the make_offer POST. Free rows add nothing to the budget's sum,
 * so holding them back changes no decision.
 */
import type { PurchaseEntry, SpendLedger } from '../engine/index.js';

export class DeferredPurchases implements SpendLedger {
  private waiting: PurchaseEntry[] = [];

  constructor(private readonly ledger: SpendLedger) {}

  spentSince(fromMs: number, nowMs: number, strategy?: string): number {
    return this.ledger.spentSince(fromMs, nowMs, strategy);
  }

  subscribedSince(provider: string, fromMs: number, nowMs: number): boolean {
    return this.ledger.subscribedSince(provider, fromMs, nowMs);
  }

  record(purchase: PurchaseEntry): void {
    if (purchase.costCents > 0) this.ledger.record(purchase);
    else this.waiting.push(purchase);
  }

  /** Writes the free purchases held back, in the order they were made. */
  flush(): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const purchase of waiting) this.ledger.record(purchase);
  }
}
