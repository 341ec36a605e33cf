/**
 * A live A/B split (docs/strategies.md, "Shadow and split"): which arm a request belongs to, and
 * the guard's rule that each arm commits at most its share of the capital.
 *
 * - Assignment: a stable hash (sha256) of the loan request id, read as a number in [0, 1), falls
 *   in the first arm's part or the second's, the parts in proportion to the shares (shares that
 *   sum below 1 keep capital back; they still split every request). The same id always lands in
 *   the same arm, across restarts and machines.
 * - Capital share: an arm's committed money (its open offers' totals and its loans' remaining
 *   balances, the cautious side as for exposure) plus the offer must not exceed its share of the
 *   capital, taken as the balance plus what is lent out (exposure beyond the reservations, whose
 *   money is still in the balance).
 */
import { createHash } from 'node:crypto';
import { formatCents, type Cents } from '../domain/index.js';
import { guardReason } from '../domain/decision-reason.js';
import type { GuardResult } from './check-offer.js';
import type { SplitSettings } from './risk-limits.js';

/** A request id's place in [0, 1): the first 48 bits of sha256 of its decimal text. */
function splitPosition(loanRequestId: number): number {
  const digest = createHash('sha256').update(`lendbot-split:${loanRequestId}`).digest();
  return digest.readUIntBE(0, 6) / 2 ** 48;
}

/** The arm (0 or 1) a request belongs to: the shares, scaled to sum to 1, cut [0, 1) in two. */
export function armOf(loanRequestId: number, split: SplitSettings): 0 | 1 {
  return splitPosition(loanRequestId) < split.shares[0] / (split.shares[0] + split.shares[1]) ? 0 : 1;
}

export interface ArmCapital {
  /** The arm's open offers and outstanding loans. */
  committedCents: Cents;
  balanceCents: Cents;
  /** Money lent out across the account (exposure beyond the reservations). */
  lentCents: Cents;
}

/** The arm-share rule for an offer of `amountCents` by arm `arm`. */
export function checkArmShare(split: SplitSettings, arm: 0 | 1, amountCents: Cents, capital: ArmCapital): GuardResult {
  const share = split.shares[arm];
  const capitalCents = capital.balanceCents + capital.lentCents;
  if (capital.committedCents + amountCents <= Math.floor(share * capitalCents)) return { allowed: true };
  return {
    allowed: false,
    code: 'arm_share',
    reason: guardReason({
      guardCode: 'arm_share',
      arm: split.strategies[arm],
      committed: formatCents(capital.committedCents),
      total: formatCents(amountCents),
      share: (share * 100).toFixed(0),
      capital: formatCents(capitalCents),
    }),
  };
}
