/**
 * The investor's balance, derived from the transfer history (the spec has no balance endpoint).
 *
 * - `processed` transfers have moved money: their signed amounts add up to the balance.
 * - `pending` outgoing transfers (negative) are already committed: they reduce what is
 *   available. Pending incoming ones are not counted until processed.
 * - `failed` transfers moved nothing and are ignored.
 * - Any other status is counted like pending (reported in `unknownStatuses`).
 */
import { parseCents, type Cents } from './money.js';
import type { TransferDayGroup } from './resources/index.js';

export interface BalanceSummary {
  /** Sum of processed transfers. */
  balanceCents: Cents;
  /** Sum of pending outgoing transfers (negative or zero). */
  pendingOutCents: Cents;
  /** Sum of pending incoming transfers (positive or zero), not yet usable. */
  pendingInCents: Cents;
  /** balance + pending outgoing: what can be committed now. */
  availableCents: Cents;
  transfers: number;
  unknownStatuses: string[];
}

export function balanceFromTransfers(groups: readonly TransferDayGroup[]): BalanceSummary {
  let balanceCents = 0;
  let pendingOutCents = 0;
  let pendingInCents = 0;
  let transfers = 0;
  const unknown = new Set<string>();
  for (const group of groups) {
    for (const transfer of group.transactions) {
      transfers += 1;
      const cents = parseCents(transfer.transfer_amount);
      const status = transfer.transfer_status.toLowerCase();
      if (status === 'processed') balanceCents += cents;
      else if (status === 'failed') continue;
      else {
        if (status !== 'pending') unknown.add(transfer.transfer_status);
        if (cents < 0) pendingOutCents += cents;
        else pendingInCents += cents;
      }
    }
  }
  return {
    balanceCents,
    pendingOutCents,
    pendingInCents,
    availableCents: balanceCents + pendingOutCents,
    transfers,
    unknownStatuses: [...unknown],
  };
}
