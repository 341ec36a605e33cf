/**
 * The investor's balance as the guard sees it: derived from the transfer history (processed
 * amounts, minus pending outgoing ones: see balanceFromTransfers), refreshed on a schedule and
 * after each offer. Transfers are also kept in the store for reports and outcomes.
 */
import type { Clock } from '../clock/clock.js';
import type { Logger } from '../log/logger.js';
import { balanceFromTransfers, formatCents, type Cents, type TransferDayGroup } from '../domain/index.js';
import { collectPages, type MarketplaceApi } from '../service/index.js';
import type { Store } from '../store/index.js';

export class BalanceTracker {
  private availableCents: Cents | undefined;
  /** Processed repayments seen so far, to log the new ones. */
  private repaymentsSeen: number | undefined;
  private refreshing: Promise<Cents> | undefined;

  constructor(private readonly deps: { client: MarketplaceApi; store: Store; clock: Clock; log: Logger }) {}

  /** The last known available balance, refreshing first if none is known yet. */
  async current(): Promise<Cents> {
    return this.availableCents ?? (await this.refresh());
  }

  /** Resolves when no refresh is under way (the daemon waits for it before closing the store). */
  async idle(): Promise<void> {
    await this.refreshing?.catch(() => undefined);
  }

  /** Reads the whole transfer history again; concurrent callers share one refresh. */
  refresh(): Promise<Cents> {
    this.refreshing ??= this.load().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  private async load(): Promise<Cents> {
    const { items, issues } = await collectPages(this.deps.client.transferPages());
    for (const issue of issues) this.deps.log.warn({ issue }, 'transfer group left out of the balance');
    const summary = balanceFromTransfers(items);
    this.deps.store.account.replaceTransfers(items, this.deps.clock.now());
    this.availableCents = summary.availableCents;
    this.logNewRepayments(items);
    this.deps.log.debug({ availableCents: summary.availableCents, transfers: summary.transfers }, 'balance refreshed');
    return summary.availableCents;
  }

  private logNewRepayments(groups: readonly TransferDayGroup[]): void {
    const repayments = groups
      .flatMap((group) => group.transactions)
      .filter((transfer) => transfer.transfer_status === 'processed' && REPAYMENT_TYPES.has(transfer.transfer_type));
    if (this.repaymentsSeen !== undefined && repayments.length > this.repaymentsSeen) {
      const fresh = repayments.length - this.repaymentsSeen;
      this.deps.log.info({ repayments: fresh, available: formatCents(this.availableCents ?? 0) }, 'repayments received');
    }
    this.repaymentsSeen = repayments.length;
  }
}

const REPAYMENT_TYPES = new Set(['Monthly Payments', 'Collection']);
