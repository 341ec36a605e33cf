/**
 * The investor's account as the service last reported it: loans and the transfer history (their
 * payments are in payments-repository.ts). A reconciliation job syncs these; reports, outcomes
 * and the guard's balance read them.
 */
import type { Database } from 'better-sqlite3';
import { dollarsToCents, parseCents, type Cents, type Loan, type LoanListStatus, type TransferDayGroup } from '../domain/index.js';
import { flag, isoFromMs, parseJsonColumn } from './sql-values.js';

export interface StoredLoan {
  id: number;
  loanRequestId: number | null;
  /** Which list the loan came from (current, completed, collection, default). */
  listStatus: LoanListStatus;
  status: string;
  riskLevel: number | null;
  loanAmountCents: Cents;
  /** What is still owed: loan_balance, else remaining_debt, else the loan amount. */
  remainingCents: Cents;
  interestRate: number;
  paidOff: boolean;
  loan: Loan;
}

interface LoanRow {
  id: number;
  loan_request_id: number | null;
  list_status: LoanListStatus;
  status: string;
  risk_level: number | null;
  loan_amount_cents: number;
  remaining_cents: number;
  interest_rate: number;
  paid_off: 0 | 1;
  raw_json: string;
}

export interface AccountRepository {
  /** Inserts or updates loans by id, as read from one of the four loan lists. */
  upsertLoans(loans: readonly Loan[], listStatus: LoanListStatus, atMs: number): void;
  /** Replaces the whole transfer history with this snapshot (the service sends it whole). */
  replaceTransfers(groups: readonly TransferDayGroup[], atMs: number): void;
  loans(): StoredLoan[];
  /** The newest loan for a loan request, by the loans_request index; undefined when none is synced. */
  loanForRequest(loanRequestId: number): StoredLoan | undefined;
  /** Loans by the list they are in: { current: 2, default: 1, ... }. */
  loanCountsByList(): Record<string, number>;
  /** Each loan's list, by loan id (cheap: two columns). */
  loanLists(): Map<number, string>;
  /**
   * Forgets stored `pending` loans missing from a complete read of every loan list: an accepted
   * offer whose acceptance expired unfunded, which would otherwise count as exposure forever.
   * Returns how many were forgotten.
   */
  forgetUnlistedPending(listedLoanIds: ReadonlySet<number>): number;
  /** The stored transfer history, grouped by date as the service sends it, in the order stored. */
  transferGroups(): TransferDayGroup[];
  /**
   * Changes whenever a loan, payment or transfer is stored or updated (counts and newest sync
   * times): what the ledger is built from, so equity can be kept until it changes (equity-cache.ts).
   */
  ledgerVersion(): string;
}

function remainingCents(loan: Loan): Cents {
  const remaining = loan.loan_balance ?? loan.remaining_debt ?? loan.loan_amount;
  return dollarsToCents(remaining);
}

function fromLoanRow(row: LoanRow): StoredLoan {
  return {
    id: row.id,
    loanRequestId: row.loan_request_id,
    listStatus: row.list_status,
    status: row.status,
    riskLevel: row.risk_level,
    loanAmountCents: row.loan_amount_cents,
    remainingCents: row.remaining_cents,
    interestRate: row.interest_rate,
    paidOff: row.paid_off === 1,
    loan: parseJsonColumn<Loan>(row.raw_json),
  };
}

export function createAccountRepository(db: Database): AccountRepository {
  const upsertLoan = db.prepare(
    `INSERT INTO loans (id, loan_request_id, list_status, status, risk_level, loan_amount_cents, remaining_cents,
       interest_rate, paid_off, raw_json, synced_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET loan_request_id = excluded.loan_request_id, list_status = excluded.list_status,
       status = excluded.status, risk_level = excluded.risk_level, loan_amount_cents = excluded.loan_amount_cents,
       remaining_cents = excluded.remaining_cents, interest_rate = excluded.interest_rate,
       paid_off = excluded.paid_off, raw_json = excluded.raw_json, synced_at = excluded.synced_at`,
  );
  const clearTransfers = db.prepare('DELETE FROM transfers');
  const insertTransfer = db.prepare(
    `INSERT INTO transfers (date, position, status, type, amount_cents, loan_request_id, loan_id, borrower_id,
       raw_json, synced_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const allLoans = db.prepare<[], LoanRow>('SELECT * FROM loans ORDER BY id');
  const loanByRequest = db.prepare<[number], LoanRow>('SELECT * FROM loans WHERE loan_request_id = ? ORDER BY id DESC LIMIT 1');
  const countsByList = db.prepare<[], { list_status: string; n: number }>(
    'SELECT list_status, COUNT(*) AS n FROM loans GROUP BY list_status ORDER BY list_status',
  );
  const listsById = db.prepare<[], { id: number; list_status: string }>('SELECT id, list_status FROM loans');
  const pendingLoanIds = db.prepare<[], { id: number }>("SELECT id FROM loans WHERE lower(status) = 'pending'");
  const deleteLoan = db.prepare('DELETE FROM loans WHERE id = ?');
  const forgetUnlisted = db.transaction((listed: ReadonlySet<number>) => {
    let forgotten = 0;
    for (const { id } of pendingLoanIds.all()) if (!listed.has(id)) forgotten += deleteLoan.run(id).changes;
    return forgotten;
  });
  const allTransfers = db.prepare<[], { date: string; raw_json: string }>('SELECT date, raw_json FROM transfers ORDER BY id');

  const upsertLoans = db.transaction((loans: readonly Loan[], listStatus: LoanListStatus, at: string) => {
    for (const loan of loans) {
      upsertLoan.run(
        loan.id,
        loan.loan_request_id ?? null,
        listStatus,
        loan.status,
        loan.borrower_card_color ?? null,
        dollarsToCents(loan.loan_amount),
        remainingCents(loan),
        loan.interest_rate,
        flag(loan.loan_paid_off ?? listStatus === 'completed'),
        JSON.stringify(loan),
        at,
      );
    }
  });
  // One transaction: a reader never sees half a snapshot.
  const replaceTransfers = db.transaction((groups: readonly TransferDayGroup[], at: string) => {
    clearTransfers.run();
    for (const group of groups) {
      group.transactions.forEach((transfer, position) => {
        insertTransfer.run(
          group.date,
          position,
          transfer.transfer_status,
          transfer.transfer_type,
          parseCents(transfer.transfer_amount),
          transfer.loan_request_id ?? null,
          transfer.loan_id ?? null,
          transfer.borrower_id ?? null,
          JSON.stringify(transfer),
          at,
        );
      });
    }
  });

  const version = db.prepare<[], { v: string }>(
    `SELECT (SELECT COUNT(*) || '/' || IFNULL(MAX(synced_at), '') FROM loans) || '|' ||
            (SELECT COUNT(*) || '/' || IFNULL(MAX(synced_at), '') FROM payments) || '|' ||
            (SELECT COUNT(*) || '/' || IFNULL(MAX(synced_at), '') FROM transfers) AS v`,
  );

  return {
    ledgerVersion: () => version.get()?.v ?? '',
    upsertLoans: (loans, listStatus, atMs) => upsertLoans(loans, listStatus, isoFromMs(atMs)),
    replaceTransfers: (groups, atMs) => replaceTransfers(groups, isoFromMs(atMs)),
    loans: () => allLoans.all().map(fromLoanRow),
    loanForRequest(loanRequestId) {
      const row = loanByRequest.get(loanRequestId);
      return row === undefined ? undefined : fromLoanRow(row);
    },
    loanCountsByList: () => Object.fromEntries(countsByList.all().map((row) => [row.list_status, row.n])),
    loanLists: () => new Map(listsById.all().map((row) => [row.id, row.list_status])),
    forgetUnlistedPending: (listed) => forgetUnlisted(listed),
    transferGroups() {
      const groups: TransferDayGroup[] = [];
      for (const row of allTransfers.all()) {
        const transfer = parseJsonColumn<TransferDayGroup['transactions'][number]>(row.raw_json);
        const last = groups.at(-1);
        if (last !== undefined && last.date === row.date) last.transactions.push(transfer);
        else groups.push({ date: row.date, transactions: [transfer] });
      }
      return groups;
    },
  };
}
