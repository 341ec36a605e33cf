/**
 * Equity that tells the truth (docs/dashboard.md, "Returns"): cash, plus the principal still out
 * on loans (from the loan ledger: repayments split into interest and principal), less the loss
 * expected on delinquent loans. Realised interest shows as it arrives; a loss shows when it
 * becomes likely (a share of the principal by how many days the oldest unpaid payment is late),
 * and in full when the loan defaults and is written off.
 *
 * The returns API, the dashboard, `lendbot status` and the agent connector all read these figures.
 */
import type { LoanPayment } from '../domain/index.js';
import { buildLoanLedger, type LedgerInput } from './loan-ledger.js';
import { DAY_MS } from '../clock/time-constants.js';

/** From `daysLate` days late on, `rate` of the principal still out is expected lost. */
interface LossRateStep {
  daysLate: number;
  rate: number;
}

export interface LossRates {
  /** Ascending by daysLate; below the first step nothing is expected lost. */
  byDaysLate: readonly LossRateStep[];
  /** The least share expected lost once a payment is missed (the loan is in collection). */
  missed: number;
}

/** The documented defaults (docs/dashboard.md): early lateness mostly cures, three months rarely. */
export const DEFAULT_LOSS_RATES: LossRates = {
  byDaysLate: [
    { daysLate: 1, rate: 0.05 },
    { daysLate: 16, rate: 0.15 },
    { daysLate: 31, rate: 0.35 },
    { daysLate: 61, rate: 0.6 },
    { daysLate: 91, rate: 0.8 },
  ],
  missed: 0.5,
};

/** The share of principal expected lost on a loan `daysLate` days late (missed: a payment was missed). */
export function lossRate(daysLate: number, missed: boolean, rates: LossRates = DEFAULT_LOSS_RATES): number {
  let rate = missed ? rates.missed : 0;
  for (const step of rates.byDaysLate) if (daysLate >= step.daysLate) rate = Math.max(rate, step.rate);
  return Math.min(1, rate);
}

/** The money at one time. */
export interface EquityFigures {
  /** The day's start (ISO) for a series point; the time asked for by equityAt. */
  at: string;
  cashCents: number;
  /** Principal still out on loans not written off. */
  outstandingCents: number;
  expectedLossCents: number;
  /** cash + outstanding − expected loss. */
  equityCents: number;
  /** Cumulative: interest, late fees, write-offs, recoveries. */
  interestCents: number;
  lateFeesCents: number;
  writtenOffCents: number;
  recoveriesCents: number;
  /** Written off plus expected: the losses as they stand. */
  lossesCents: number;
}

interface PaymentTimes {
  dueMs: number;
  /** When it was paid; +Infinity while it is not. */
  paidMs: number;
  /** When it was marked missed; null when it is not. */
  missedMs: number | null;
}

function paymentTimes(payment: LoanPayment): PaymentTimes {
  const dueMs = Date.parse(`${payment.payment_due_date.slice(0, 10)}T00:00:00Z`);
  const status = payment.payment_status.trim().toLowerCase();
  const changedMs = payment.payment_status_changed ? Date.parse(payment.payment_status_changed.replace(' ', 'T')) : Number.NaN;
  const at = Number.isNaN(changedMs) ? dueMs + (payment.delayed_days_count ?? 0) * DAY_MS : changedMs;
  if (status === 'paid') return { dueMs, paidMs: at, missedMs: null };
  return { dueMs, paidMs: Number.POSITIVE_INFINITY, missedMs: status.includes('missed') ? at : null };
}

/** How late a loan is at `ms`: days since its oldest unpaid due date, and whether a payment was missed by then. */
function delinquencyAt(times: readonly PaymentTimes[], ms: number): { daysLate: number; missed: boolean } {
  let daysLate = 0;
  let missed = false;
  for (const payment of times) {
    if (payment.dueMs <= ms && payment.paidMs > ms) daysLate = Math.max(daysLate, Math.floor((ms - payment.dueMs) / DAY_MS));
    if (payment.missedMs !== null && payment.missedMs <= ms) missed = true;
  }
  return { daysLate, missed };
}

const dayStartMs = (day: string): number => Date.parse(`${day}T00:00:00Z`);
const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/**
 * Equity over time: one point a day with a movement, a loan growing later or a write-off, and
 * today; each the value as that day ended (today: as of `nowMs`). Oldest first. Expected-loss
 * steps after today are left out (they have not happened); movements never are.
 */
export function equitySeries(input: Omit<LedgerInput, 'today'>, nowMs: number, rates: LossRates = DEFAULT_LOSS_RATES): EquityFigures[] {
  const today = dayOf(nowMs);
  // The ledger (late fees) and the delinquency below both want each loan's payments: read once.
  const read = new Map<number, readonly LoanPayment[]>();
  const paymentsOf = (loanId: number): readonly LoanPayment[] => {
    let payments = read.get(loanId);
    if (payments === undefined) read.set(loanId, (payments = input.paymentsOf(loanId)));
    return payments;
  };
  const ledger = buildLoanLedger({ ...input, paymentsOf, today });
  // Delinquency needs the payments; a loan in collection with none synced counts as missed from today.
  const times = new Map<number, PaymentTimes[]>();
  const days = new Set<string>([...ledger.entries.map((entry) => entry.day), ...ledger.cash.map((move) => move.day)]);
  for (const loan of input.loans) {
    // Only payments that were (or are) a day or more late, or missed, can make a loss expected:
    // the rest are left out, so the daily pass below looks at late loans alone.
    const loanTimes = paymentsOf(loan.id)
      .map(paymentTimes)
      .filter((payment) => payment.missedMs !== null || (payment.dueMs <= nowMs && payment.paidMs - payment.dueMs >= DAY_MS));
    if (loan.listStatus === 'collection' && !loanTimes.some((payment) => payment.missedMs !== null)) {
      loanTimes.push({ dueMs: nowMs, paidMs: Number.POSITIVE_INFINITY, missedMs: nowMs });
    }
    for (const payment of loanTimes) {
      // The days its expected loss steps up: when missed, and each step of lateness while unpaid.
      if (payment.missedMs !== null) days.add(dayOf(payment.missedMs));
      for (const step of rates.byDaysLate) {
        const stepMs = payment.dueMs + step.daysLate * DAY_MS;
        if (stepMs < payment.paidMs && stepMs <= nowMs) days.add(dayOf(stepMs));
      }
    }
    if (loanTimes.length > 0) times.set(loan.id, loanTimes);
  }
  if (days.size === 0) return [];
  // A movement synced is a movement made, even dated after `nowMs` (a clock read behind the store's).
  const sorted = [...days.add(today)].sort();

  const outstanding = new Map<number, number>();
  const sums = { cash: 0, interest: 0, lateFees: 0, writtenOff: 0, recoveries: 0 };
  let entry = 0;
  let move = 0;
  const points: EquityFigures[] = [];
  for (const day of sorted) {
    for (; move < ledger.cash.length && ledger.cash[move]!.day <= day; move += 1) sums.cash += ledger.cash[move]!.cents;
    for (; entry < ledger.entries.length && ledger.entries[entry]!.day <= day; entry += 1) {
      const { loanId, kind, cents, outstandingDeltaCents } = ledger.entries[entry]!;
      if (loanId !== null && outstandingDeltaCents !== 0) outstanding.set(loanId, (outstanding.get(loanId) ?? 0) + outstandingDeltaCents);
      if (kind === 'interest') sums.interest += cents;
      else if (kind === 'late_fees') sums.lateFees += cents;
      else if (kind === 'write_offs') sums.writtenOff += cents;
      else if (kind === 'recoveries') sums.recoveries += cents;
    }
    const atMs = day === today ? nowMs : dayStartMs(day) + DAY_MS - 1;
    let outstandingCents = 0;
    let expectedLossCents = 0;
    for (const cents of outstanding.values()) if (cents > 0) outstandingCents += cents;
    for (const [loanId, loanTimes] of times) {
      const cents = outstanding.get(loanId) ?? 0;
      if (cents <= 0) continue;
      const { daysLate, missed } = delinquencyAt(loanTimes, atMs);
      expectedLossCents += Math.round(cents * lossRate(daysLate, missed, rates));
    }
    points.push({
      at: `${day}T00:00:00.000Z`,
      cashCents: sums.cash,
      outstandingCents,
      expectedLossCents,
      equityCents: sums.cash + outstandingCents - expectedLossCents,
      interestCents: sums.interest,
      lateFeesCents: sums.lateFees,
      writtenOffCents: sums.writtenOff,
      recoveriesCents: sums.recoveries,
      lossesCents: sums.writtenOff + expectedLossCents,
    });
  }
  return points;
}
