/**
 * The lender's money per loan, from the transfer history (marketplace 2.7), the loans (2.5) and their
 * payments (2.6). Every transfer that moved money becomes ledger entries of one kind:
 *
 * - `Fund Loans`: lent (a `Refund` naming a loan gives some back);
 * - `Monthly Payments`: late fees (the matching payment's late and pay-later fees), then interest,
 *   then principal. The service does not say the split, so it follows the loan's amortisation:
 *   a month's interest on the principal still out at the loan's rate (monthInterestCents, the rule
 *   the sandbox's schedules use), the rest principal; whatever is left once the principal is back
 *   is interest too;
 * - `Collection`: recoveries, which repay principal still out first;
 * - `Lender Subscription`: fees (negative: the lender pays them);
 * - deposits and withdrawals (`Add Money`, `Withdrawal`) move cash only, and anything else
 *   (rewards, crypto liquidations, a refund without a loan) is `other`.
 *
 * A loan in the default list is written off for the principal still out after its recoveries, on
 * the day of its last collection, else the due date of its first unpaid payment, else its last
 * transfer. A transfer moved money when processed; a pending outgoing one is already committed and
 * counts too; a failed one, or a pending incoming one, has not (yet) moved anything.
 */
import { monthInterestCents } from '../math/index.js';
import { parseCents, type LoanPayment, type Transfer, type TransferDayGroup } from '../domain/index.js';
import type { StoredLoan } from '../store/index.js';
import { paymentFacts } from '../store/payments-repository.js';

/** The columns of the ledger, in the export's order. */
export const LEDGER_KINDS = ['lent', 'principal', 'interest', 'fees', 'late_fees', 'write_offs', 'recoveries', 'other'] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

/** One movement of the ledger. */
export interface LedgerEntry {
  /** YYYY-MM-DD (UTC). */
  day: string;
  /** null for money that belongs to no loan (fees of the account, rewards). */
  loanId: number | null;
  kind: LedgerKind;
  /** Positive amounts of lent, principal, interest, late fees, write-offs, recoveries; fees and other keep the transfer's sign. */
  cents: number;
  /** How this entry changes the loan's principal still out (lent adds, repayments and write-offs take away). */
  outstandingDeltaCents: number;
}

/** A movement of cash, deposits and withdrawals included (equity starts from these). */
interface CashMovement {
  day: string;
  cents: number;
}

export interface LoanLedger {
  /** Oldest first; within a day, lending before repayments. */
  entries: LedgerEntry[];
  cash: CashMovement[];
}

export interface LedgerInput {
  transfers: readonly TransferDayGroup[];
  loans: readonly StoredLoan[];
  /** The payments of one loan, as synced. */
  paymentsOf: (loanId: number) => readonly LoanPayment[];
  /** Today (YYYY-MM-DD): the write-off day of a defaulted loan nothing else dates. */
  today: string;
}

/** What a transfer is to the ledger. */
export type TransferRole = 'funding' | 'repayment' | 'collection' | 'fee' | 'deposit' | 'withdrawal' | 'refund' | 'other';

export function transferRole(transfer: Transfer): TransferRole {
  switch (transfer.transfer_type.trim().toLowerCase()) {
    case 'fund loans':
      return 'funding';
    case 'monthly payments':
      return 'repayment';
    case 'collection':
      return 'collection';
    case 'lender subscription':
      return 'fee';
    case 'add money':
      return 'deposit';
    case 'withdrawal':
      return 'withdrawal';
    case 'refund':
      return transfer.loan_id === null || transfer.loan_id === undefined ? 'other' : 'refund';
    default:
      return 'other';
  }
}

/** The cents a transfer moved, or null when it moved nothing (failed, or incoming and not yet processed). */
export function movedCents(transfer: Transfer): number | null {
  const status = transfer.transfer_status.trim().toLowerCase();
  const cents = parseCents(transfer.transfer_amount);
  if (status === 'failed' || (status !== 'processed' && cents > 0)) return null;
  return cents;
}

interface LoanTransfer {
  day: string;
  role: TransferRole;
  cents: number;
  /** Where the history listed it. */
  position: number;
}

/** Orders ISO dates (and any ASCII text) by code unit: several times faster than localeCompare on the ledger's sorts. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const ROLE_ORDER: Record<TransferRole, number> = {
  funding: 0,
  refund: 1,
  repayment: 2,
  collection: 3,
  fee: 4,
  deposit: 5,
  withdrawal: 6,
  other: 7,
};

/** The late and pay-later fees of the loan's paid payments, oldest due first: the k-th repayment pays the k-th. */
function lateFeesInOrder(payments: readonly LoanPayment[]): number[] {
  return [...payments]
    .filter((payment) => payment.payment_status.trim().toLowerCase() === 'paid')
    .sort((a, b) => compareText(a.payment_due_date, b.payment_due_date) || a.id - b.id)
    .map((payment) => paymentFacts(payment).feesCents);
}

/** The day a defaulted loan is written off (YYYY-MM-DD). */
function writeOffDay(transfers: readonly LoanTransfer[], payments: readonly LoanPayment[], today: string): string {
  const collections = transfers.filter((transfer) => transfer.role === 'collection');
  if (collections.length > 0) return collections.at(-1)!.day;
  const unpaid = payments
    .filter((payment) => payment.payment_status.trim().toLowerCase() !== 'paid')
    .map((payment) => payment.payment_due_date.slice(0, 10))
    .sort()[0];
  return unpaid ?? transfers.at(-1)?.day ?? today;
}

/** One loan's entries from its transfers (sorted), its rate, its payments and whether it defaulted. */
function loanEntries(
  loanId: number,
  transfers: readonly LoanTransfer[],
  loan: StoredLoan | undefined,
  payments: readonly LoanPayment[],
  today: string,
): LedgerEntry[] {
  // An unknown loan's rate is unknown: repayments are principal until it is back, then interest.
  const rate = loan?.interestRate ?? 0;
  const fees = lateFeesInOrder(payments);
  const entries: LedgerEntry[] = [];
  const add = (day: string, kind: LedgerKind, cents: number, outstandingDeltaCents = 0): void => {
    if (cents !== 0) entries.push({ day, loanId, kind, cents, outstandingDeltaCents });
  };
  let outstanding = 0;
  let repayments = 0;
  for (const { day, role, cents } of transfers) {
    if (role === 'funding' || role === 'refund') {
      add(day, 'lent', -cents, -cents);
      outstanding -= cents;
    } else if (role === 'repayment' && cents > 0) {
      const lateFee = Math.min(cents, fees[repayments] ?? 0);
      repayments += 1;
      const rest = cents - lateFee;
      const interestDue = Math.min(rest, monthInterestCents(Math.max(0, outstanding), rate));
      const principal = Math.min(Math.max(0, outstanding), rest - interestDue);
      add(day, 'late_fees', lateFee);
      add(day, 'interest', rest - principal);
      add(day, 'principal', principal, -principal);
      outstanding -= principal;
    } else if (role === 'collection') {
      add(day, 'recoveries', cents, -Math.min(Math.max(0, outstanding), cents));
      outstanding -= Math.min(Math.max(0, outstanding), cents);
    } else if (role === 'fee') {
      add(day, 'fees', cents);
    } else {
      add(day, 'other', cents);
    }
  }
  if (loan?.listStatus === 'default' && outstanding > 0)
    add(writeOffDay(transfers, payments, today), 'write_offs', outstanding, -outstanding);
  return entries;
}

export function buildLoanLedger(input: LedgerInput): LoanLedger {
  const cash: CashMovement[] = [];
  const entries: LedgerEntry[] = [];
  const byLoan = new Map<number, LoanTransfer[]>();
  let position = 0;
  for (const group of input.transfers) {
    const day = group.date.slice(0, 10);
    for (const transfer of group.transactions) {
      const cents = movedCents(transfer);
      if (cents === null) continue;
      cash.push({ day, cents });
      const role = transferRole(transfer);
      if (role === 'deposit' || role === 'withdrawal') continue;
      const loanId = transfer.loan_id ?? null;
      if (loanId === null) {
        entries.push({ day, loanId: null, kind: role === 'fee' ? 'fees' : 'other', cents, outstandingDeltaCents: 0 });
        continue;
      }
      const item: LoanTransfer = { day, role, cents, position: position++ };
      const list = byLoan.get(loanId) ?? [];
      list.push(item);
      byLoan.set(loanId, list);
    }
  }
  const loans = new Map(input.loans.map((loan) => [loan.id, loan]));
  for (const [loanId, transfers] of byLoan) {
    // The service lists a day's transfers newest first: by day, lending before repayments, then oldest first.
    transfers.sort((a, b) => compareText(a.day, b.day) || ROLE_ORDER[a.role] - ROLE_ORDER[b.role] || b.position - a.position);
    entries.push(...loanEntries(loanId, transfers, loans.get(loanId), input.paymentsOf(loanId), input.today));
  }
  // A defaulted loan with no transfer synced has nothing out: no entry. Stable sort keeps each loan's order.
  entries.sort((a, b) => compareText(a.day, b.day));
  cash.sort((a, b) => compareText(a.day, b.day));
  return { entries, cash };
}
