/**
 * The sandbox investor's money: every movement is a transfer (marketplace 2.7), and the balance is the
 * sum of processed transfers, so the transfer history always explains the balance.
 */
import type { TransferRecord, TransferStatus } from './market-types.js';

export type TransferInput = Omit<TransferRecord, 'id' | 'createdMs' | 'status'>;

export class Ledger {
  private readonly transfers: TransferRecord[] = [];
  private nextId = 1;

  /** Processed money, in cents. */
  balanceCents(): number {
    let sum = 0;
    for (const t of this.transfers) if (t.status === 'processed') sum += t.amountCents;
    return sum;
  }

  /** The balance less money already committed by pending outgoing transfers. */
  availableCents(): number {
    let sum = this.balanceCents();
    for (const t of this.transfers) if (t.status === 'pending' && t.amountCents < 0) sum += t.amountCents;
    return sum;
  }

  /** Records a transfer at `nowMs`. */
  add(nowMs: number, status: TransferStatus, input: TransferInput): TransferRecord {
    const transfer: TransferRecord = { id: this.nextId++, createdMs: nowMs, status, ...input };
    this.transfers.push(transfer);
    return transfer;
  }

  /** Moves a pending transfer to processed or failed. */
  settle(id: number, status: 'processed' | 'failed'): void {
    const transfer = this.transfers.find((t) => t.id === id);
    if (transfer && transfer.status === 'pending') transfer.status = status;
  }

  /** Every transfer, oldest first. */
  all(): readonly TransferRecord[] {
    return this.transfers;
  }
}
