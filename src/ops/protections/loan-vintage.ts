/**
 * How the lender's own recent loans are doing: the loans created within a window (a "vintage"),
 * how many of them are in collection or default, and how much of their principal is still out.
 * Measured on the loans synced from the service's loan lists, so loans made by hand count too.
 */
import type { Cents } from '../../domain/index.js';
import type { StoredLoan } from '../../store/index.js';

export interface VintageHealth {
  loans: number;
  /** Loans of the vintage now in collection or default. */
  troubled: number;
  troubledLoanIds: number[];
  principalCents: Cents;
  /**
   * What the troubled loans still owe, each capped at its principal: the money lent at risk of
   * loss. Repayments and collections already received lower it; interest never raises it.
   */
  unrecoveredCents: Cents;
}

/** The loans created at or after `sinceMs` (by the service's created_date). */
export function vintageHealth(loans: readonly StoredLoan[], sinceMs: number): VintageHealth {
  const health: VintageHealth = { loans: 0, troubled: 0, troubledLoanIds: [], principalCents: 0, unrecoveredCents: 0 };
  for (const stored of loans) {
    const created = stored.loan.created_date === undefined ? Number.NaN : Date.parse(stored.loan.created_date.replace(' ', 'T'));
    if (!(created >= sinceMs)) continue;
    health.loans += 1;
    health.principalCents += stored.loanAmountCents;
    if (stored.listStatus !== 'collection' && stored.listStatus !== 'default') continue;
    health.troubled += 1;
    health.troubledLoanIds.push(stored.id);
    // remainingCents is loan_balance (else remaining_debt): it includes interest, hence the cap.
    health.unrecoveredCents += Math.max(0, Math.min(stored.loanAmountCents, stored.remainingCents));
  }
  return health;
}
