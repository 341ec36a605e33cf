/**
 * The starting balance a backtest uses when none is given: one that fits the recording, so a
 * strategy is neither starved after a handful of loans (ranked by noise) nor drowning in idle
 * cash. Rule (docs/backtesting.md): 100 × the average request `total_amount`, rounded up to a
 * whole 1,000 USD (at least 1,000 USD).
 */
import type { PreparedRecording } from './prepared-recording.js';

const LOANS = 100;
const ROUND_TO_CENTS = 100_000;

export interface DefaultBalance {
  cents: number;
  /** The average request total_amount it was derived from. */
  averageTotalCents: number;
}

export function defaultBalance(recording: PreparedRecording): DefaultBalance {
  const { entries } = recording;
  const averageTotalCents = entries.length === 0 ? 0 : entries.reduce((sum, e) => sum + e.totalCents, 0) / entries.length;
  const cents = Math.max(ROUND_TO_CENTS, Math.ceil((LOANS * averageTotalCents) / ROUND_TO_CENTS) * ROUND_TO_CENTS);
  return { cents, averageTotalCents: Math.round(averageTotalCents) };
}

/** How the report names the default ("100 × the average request total_amount, 882.55, rounded up to 1,000 USD"). */
export function defaultBalanceRule(balance: DefaultBalance, format: (cents: number) => string): string {
  return `${LOANS} × the average request total_amount, ${format(balance.averageTotalCents)}, rounded up to 1,000 USD`;
}
