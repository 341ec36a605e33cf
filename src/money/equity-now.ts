/**
 * The lender's money read from the store: the ledger's input (transfer history, loans, their
 * payments) and equity now. One function each, so every view (returns API, dashboard, status,
 * agent connector, the ledger export) reads the same figures.
 */
import type { Clock } from '../clock/clock.js';
import { formatCents } from '../domain/index.js';
import type { Store } from '../store/index.js';
import { DEFAULT_LOSS_RATES, equitySeries, type EquityFigures, type LossRates } from './equity.js';
import type { LedgerInput } from './loan-ledger.js';

/** What the ledger is built from, as the store last synced it. */
export function ledgerInputFromStore(store: Store, nowMs: number): LedgerInput {
  const payments = store.payments.byLoan();
  return {
    transfers: store.account.transferGroups(),
    loans: store.account.loans(),
    paymentsOf: (loanId) => payments.get(loanId) ?? [],
    today: new Date(nowMs).toISOString().slice(0, 10),
  };
}

/** Equity and its parts as of the clock's now (all zero before any transfer is synced). */
export function equityNow(store: Store, clock: Clock, rates: LossRates = DEFAULT_LOSS_RATES): EquityFigures {
  const nowMs = clock.now();
  const at = new Date(nowMs).toISOString();
  const last = equitySeries(ledgerInputFromStore(store, nowMs), nowMs, rates).at(-1);
  return last !== undefined
    ? { ...last, at }
    : {
        at,
        cashCents: 0,
        outstandingCents: 0,
        expectedLossCents: 0,
        equityCents: 0,
        interestCents: 0,
        lateFeesCents: 0,
        writtenOffCents: 0,
        recoveriesCents: 0,
        lossesCents: 0,
      };
}

/** Equity as `lendbot status` prints it: the total and its parts, in plain words. */
export function equityText(figures: EquityFigures): string {
  const usd = formatCents;
  return `${usd(figures.equityCents)} (cash ${usd(figures.cashCents)} + loans out ${usd(figures.outstandingCents)} - expected losses ${usd(figures.expectedLossCents)}); interest ${usd(figures.interestCents)}, late fees received ${usd(figures.lateFeesCents)}, written off ${usd(figures.writtenOffCents)}`;
}

/** Equity in `lendbot status --json`, amounts in integer cents. */
export function equityJson(figures: EquityFigures): Record<string, number> {
  return {
    equity_cents: figures.equityCents,
    cash_cents: figures.cashCents,
    outstanding_cents: figures.outstandingCents,
    expected_loss_cents: figures.expectedLossCents,
    interest_cents: figures.interestCents,
    late_fees_received_cents: figures.lateFeesCents,
    written_off_cents: figures.writtenOffCents,
    recoveries_cents: figures.recoveriesCents,
  };
}
