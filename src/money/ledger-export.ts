/**
 * The earnings ledger for tax season (`lendbot ledger export`, docs/ledger.md): the loan ledger
 * summed per loan and month, as CSV in dollars with two decimals, and its reconciliation against
 * the transfer history: per kind of transfer, the money the history moved in the period equals
 * the ledger's columns for it, to the cent.
 */
import { formatCents, type TransferDayGroup } from '../domain/index.js';
import {
  compareText,
  LEDGER_KINDS,
  movedCents,
  transferRole,
  type LedgerEntry,
  type LedgerKind,
  type TransferRole,
} from './loan-ledger.js';

/** Days from..to, both included (YYYY-MM-DD); undefined: open. */
export interface LedgerPeriod {
  from?: string;
  to?: string;
}

export interface LedgerMonthRow {
  /** null: money of the account, not of one loan (fees, rewards). */
  loanId: number | null;
  /** YYYY-MM. */
  month: string;
  cents: Record<LedgerKind, number>;
}

const inPeriod = (day: string, period: LedgerPeriod): boolean =>
  (period.from === undefined || day >= period.from) && (period.to === undefined || day <= period.to);

const zeros = (): Record<LedgerKind, number> => Object.fromEntries(LEDGER_KINDS.map((kind) => [kind, 0])) as Record<LedgerKind, number>;

/** The entries of the period summed per month and loan: by month, then loan (the account's row last). */
export function ledgerMonths(entries: readonly LedgerEntry[], period: LedgerPeriod = {}): LedgerMonthRow[] {
  const rows = new Map<string, LedgerMonthRow>();
  for (const entry of entries) {
    if (!inPeriod(entry.day, period)) continue;
    const month = entry.day.slice(0, 7);
    const key = `${month} ${entry.loanId ?? ''}`;
    let row = rows.get(key);
    if (row === undefined) rows.set(key, (row = { loanId: entry.loanId, month, cents: zeros() }));
    row.cents[entry.kind] += entry.cents;
  }
  return [...rows.values()].sort(
    (a, b) => compareText(a.month, b.month) || (a.loanId ?? Number.MAX_SAFE_INTEGER) - (b.loanId ?? Number.MAX_SAFE_INTEGER),
  );
}

/** Every column summed. */
function ledgerTotals(rows: readonly LedgerMonthRow[]): Record<LedgerKind, number> {
  const totals = zeros();
  for (const row of rows) for (const kind of LEDGER_KINDS) totals[kind] += row.cents[kind];
  return totals;
}

/**
 * The CSV's column of each kind: late fees are named as what they are here, received (the
 * status's "late fees charged" are what the marketplace billed, received or not).
 */
const csvColumn = (kind: LedgerKind): string => (kind === 'late_fees' ? 'late_fees_received' : kind);

const CSV_HEADER = ['loan_id', 'month', ...LEDGER_KINDS.map(csvColumn)].join(',');

/** The CSV text: a header, a line per loan and month, and with `totals` a last `total` line. */
export function ledgerCsv(rows: readonly LedgerMonthRow[], options: { totals?: boolean } = {}): string {
  const line = (first: string, month: string, cents: Record<LedgerKind, number>): string =>
    [first, month, ...LEDGER_KINDS.map((kind) => formatCents(cents[kind]))].join(',');
  const lines = [CSV_HEADER, ...rows.map((row) => line(row.loanId === null ? 'account' : String(row.loanId), row.month, row.cents))];
  if (options.totals === true) lines.push(line('total', '', ledgerTotals(rows)));
  return `${lines.join('\n')}\n`;
}

/** One line of the reconciliation: a kind of transfer and the ledger columns that hold it. */
interface ReconciliationLine {
  label: string;
  transfersCents: number;
  ledgerCents: number;
}

export interface Reconciliation {
  ok: boolean;
  lines: ReconciliationLine[];
  /** Money in and out of the account that is not earnings (deposits, withdrawals): not in the ledger. */
  depositsCents: number;
  withdrawalsCents: number;
}

/** Which ledger columns hold each kind of transfer, and how (lent is the funding's amount turned positive). */
const COLUMNS_OF: ReadonlyArray<{ label: string; roles: readonly TransferRole[]; ledger: (totals: Record<LedgerKind, number>) => number }> =
  [
    // 0 - lent, not -lent: no -0 when nothing was lent.
    { label: 'loans funded (Fund Loans, refunds of a loan) = -lent', roles: ['funding', 'refund'], ledger: (t) => 0 - t.lent },
    {
      label: 'repayments (Monthly Payments) = principal + interest + late fees received',
      roles: ['repayment'],
      ledger: (t) => t.principal + t.interest + t.late_fees,
    },
    { label: 'collections (Collection) = recoveries', roles: ['collection'], ledger: (t) => t.recoveries },
    { label: 'fees (Lender Subscription) = fees', roles: ['fee'], ledger: (t) => t.fees },
    { label: 'other transfers = other', roles: ['other'], ledger: (t) => t.other },
  ];

/** Checks the rows of `period` against the transfer history of the same period, kind by kind. */
export function reconcileLedger(
  rows: readonly LedgerMonthRow[],
  transfers: readonly TransferDayGroup[],
  period: LedgerPeriod = {},
): Reconciliation {
  const byRole = new Map<TransferRole, number>();
  for (const group of transfers) {
    if (!inPeriod(group.date.slice(0, 10), period)) continue;
    for (const transfer of group.transactions) {
      const cents = movedCents(transfer);
      if (cents === null) continue;
      const role = transferRole(transfer);
      byRole.set(role, (byRole.get(role) ?? 0) + cents);
    }
  }
  const totals = ledgerTotals(rows);
  const lines = COLUMNS_OF.map(({ label, roles, ledger }) => ({
    label,
    transfersCents: roles.reduce((sum, role) => sum + (byRole.get(role) ?? 0), 0),
    ledgerCents: ledger(totals),
  }));
  return {
    ok: lines.every((line) => line.transfersCents === line.ledgerCents),
    lines,
    depositsCents: byRole.get('deposit') ?? 0,
    withdrawalsCents: byRole.get('withdrawal') ?? 0,
  };
}
