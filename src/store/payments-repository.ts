/**
 * The payments of the investor's loans (marketplace 2.6, read per loan with 4.8), what they say about
 * each loan (late and missed payments, the longest delay, fees) and when each loan's payments
 * are worth reading again. The account sync writes them; status, notifications and exports read.
 *
 * A payment's `flag` is the worst state the sync has seen it in (late, then missed) and is never
 * lowered: a late payment paid since still counts as late. Raising a flag on a loan read before
 * gives the payment a new `flag_seq`, which the notification check follows as a cursor, so each
 * newly late or missed payment is told once, across syncs and restarts.
 */
import type { Database } from 'better-sqlite3';
import { amountToCents, dollarsToCents, type Cents, type LoanPayment } from '../domain/index.js';
import { flag as sqlFlag, isoFromMs, parseJsonColumn } from './sql-values.js';

type PaymentFlag = 'late' | 'missed';

/** What one payment's state says, as the columns hold it. */
export interface PaymentFacts {
  amountCents: Cents;
  isLate: boolean;
  delayedDays: number;
  /** Late payment fees plus pay-later fees. */
  feesCents: Cents;
  /** missed, late, or null for a payment neither late nor missed. */
  flag: PaymentFlag | null;
  /** Paid or missed: nothing more will happen to it. */
  settled: boolean;
}

/** What a loan's payments add up to (the `loan_payment_states` view). */
export interface LoanPaymentState {
  loanId: number;
  payments: number;
  paid: number;
  paidCents: Cents;
  /** Payments that were late (paid late, or still unpaid after the due date), missed ones apart. */
  late: number;
  missed: number;
  maxDelayedDays: number;
  feesCents: Cents;
  lastDueDate: string;
}

/** The same figures over every loan. */
export interface PaymentTotals extends Omit<LoanPaymentState, 'loanId' | 'lastDueDate'> {
  loans: number;
}

export interface FlaggedPayment {
  seq: number;
  flag: PaymentFlag;
  flaggedAt: string;
  payment: LoanPayment;
}

interface UpsertPaymentsResult {
  inserted: number;
  updated: number;
  unchanged: number;
  /** Flags raised that the notification check will tell. */
  newlyFlagged: number;
}

/** A loan whose payments are due for a read. */
export interface LoanDueForPayments {
  loanId: number;
  listStatus: string;
  loanStatus: string;
  nextPaymentDate: string | null;
  /** Whether its payments were read before (false: the first read, which only takes a baseline). */
  readBefore: boolean;
}

export interface PaymentsRepository {
  /**
   * Inserts or updates payments by id: the same payment twice is one row, a changed state updates
   * it. `news: false` (a loan's first read) raises flags for the counts without telling them.
   */
  upsert(payments: readonly LoanPayment[], atMs: number, options?: { news?: boolean }): UpsertPaymentsResult;
  forLoan(loanId: number): LoanPayment[];
  /** Every loan's payments, by loan id, each loan's by due date: one query for the whole ledger. */
  byLoan(): Map<number, LoanPayment[]>;
  /** Whether a loan has a payment due by `today` (YYYY-MM-DD) that is neither paid nor missed. */
  hasOverdueUnsettled(loanId: number, today: string): boolean;
  stateOfLoan(loanId: number): LoanPaymentState | undefined;
  states(): LoanPaymentState[];
  totals(): PaymentTotals;
  /** Payments whose flag was raised after `seq`, oldest first. */
  flaggedAfter(seq: number, limit: number): FlaggedPayment[];
  /** The highest flag_seq given so far (0 when none). */
  lastFlagSeq(): number;
  /**
   * Loans (not pending) whose payments were never read, whose list or status changed since their
   * last read, or whose next read is due by `nowMs`; changed ones first, then the longest due.
   */
  dueForRead(nowMs: number, limit: number): LoanDueForPayments[];
  /** Notes that a loan's payments were read, and when to read them again (null: when the loan moves). */
  recordRead(read: { loanId: number; listStatus: string; loanStatus: string; atMs: number; nextAtMs: number | null }): void;
}

const FLAG_RANK: Record<PaymentFlag, number> = { late: 1, missed: 2 };

/** Reads a payment's state; the status vocabulary is open-ended (marketplace 2.6), so it is matched loosely. */
export function paymentFacts(payment: LoanPayment): PaymentFacts {
  const status = payment.payment_status.trim().toLowerCase();
  const missed = status.includes('missed');
  const delayedDays = Math.max(0, payment.delayed_days_count ?? 0);
  const isLate = payment.is_late_payment === true || delayedDays > 0;
  const fees = (payment.late_payment_fees_amount ?? 0) + (payment.pay_later_fees ?? 0);
  return {
    amountCents: amountToCents(payment.payment_amount),
    isLate,
    delayedDays,
    feesCents: dollarsToCents(fees),
    flag: missed ? 'missed' : isLate ? 'late' : null,
    settled: missed || status === 'paid',
  };
}

interface StateRow {
  loan_id: number;
  payments: number;
  paid: number;
  paid_cents: number;
  late: number;
  missed: number;
  max_delayed_days: number;
  fees_cents: number;
  last_due_date: string;
}

/** The counts every payment summary has, a loan's or the account's. */
function countsOf(row: Omit<StateRow, 'loan_id' | 'last_due_date'>): Omit<LoanPaymentState, 'loanId' | 'lastDueDate'> {
  return {
    payments: row.payments,
    paid: row.paid,
    paidCents: row.paid_cents,
    late: row.late,
    missed: row.missed,
    maxDelayedDays: row.max_delayed_days,
    feesCents: row.fees_cents,
  };
}

function fromStateRow(row: StateRow): LoanPaymentState {
  return { loanId: row.loan_id, ...countsOf(row), lastDueDate: row.last_due_date };
}

export function createPaymentsRepository(db: Database): PaymentsRepository {
  const existing = db.prepare<[number], { raw_json: string; flag: PaymentFlag | null; flagged_at: string | null; flag_seq: number | null }>(
    'SELECT raw_json, flag, flagged_at, flag_seq FROM payments WHERE id = ?',
  );
  const maxSeq = db.prepare<[], { seq: number | null }>('SELECT MAX(flag_seq) AS seq FROM payments');
  const upsertRow = db.prepare(
    `INSERT INTO payments (id, loan_id, amount_cents, due_date, status, raw_json, synced_at, is_late, delayed_days,
       fees_cents, flag, flagged_at, flag_seq)
     VALUES (@id, @loanId, @amountCents, @dueDate, @status, @rawJson, @at, @isLate, @delayedDays, @feesCents, @flag,
       @flaggedAt, @flagSeq)
     ON CONFLICT (id) DO UPDATE SET loan_id = excluded.loan_id, amount_cents = excluded.amount_cents,
       due_date = excluded.due_date, status = excluded.status, raw_json = excluded.raw_json,
       synced_at = excluded.synced_at, is_late = excluded.is_late, delayed_days = excluded.delayed_days,
       fees_cents = excluded.fees_cents, flag = excluded.flag, flagged_at = excluded.flagged_at,
       flag_seq = excluded.flag_seq`,
  );
  const loanPayments = db.prepare<[number], { raw_json: string }>('SELECT raw_json FROM payments WHERE loan_id = ? ORDER BY due_date, id');
  const everyPayment = db.prepare<[], { loan_id: number; raw_json: string }>(
    'SELECT loan_id, raw_json FROM payments ORDER BY loan_id, due_date, id',
  );
  const overdueUnsettled = db.prepare<[number, string], { n: number }>(
    "SELECT COUNT(*) AS n FROM payments WHERE loan_id = ? AND due_date <= ? AND lower(status) <> 'paid' AND flag IS NOT 'missed'",
  );
  const oneState = db.prepare<[number], StateRow>('SELECT * FROM loan_payment_states WHERE loan_id = ?');
  const allStates = db.prepare<[], StateRow>('SELECT * FROM loan_payment_states ORDER BY loan_id');
  const totalsQuery = db.prepare<[], Omit<StateRow, 'loan_id' | 'last_due_date'> & { loans: number }>(
    `SELECT COUNT(*) AS loans, COALESCE(SUM(payments), 0) AS payments, COALESCE(SUM(paid), 0) AS paid,
       COALESCE(SUM(paid_cents), 0) AS paid_cents, COALESCE(SUM(late), 0) AS late, COALESCE(SUM(missed), 0) AS missed,
       COALESCE(MAX(max_delayed_days), 0) AS max_delayed_days, COALESCE(SUM(fees_cents), 0) AS fees_cents
     FROM loan_payment_states`,
  );
  const flagged = db.prepare<[number, number], { flag_seq: number; flag: PaymentFlag; flagged_at: string; raw_json: string }>(
    'SELECT flag_seq, flag, flagged_at, raw_json FROM payments WHERE flag_seq > ? ORDER BY flag_seq LIMIT ?',
  );
  // A loan moved (another list, another status) is read at once: that is when payments turn missed.
  const due = db.prepare<
    [string, number],
    { id: number; list_status: string; status: string; next_payment_date: string | null; read_before: 0 | 1 }
  >(
    `SELECT l.id, l.list_status, l.status, json_extract(l.raw_json, '$.next_payment_date') AS next_payment_date,
       r.loan_id IS NOT NULL AS read_before
     FROM loans l LEFT JOIN payment_reads r ON r.loan_id = l.id
     WHERE lower(l.status) <> 'pending'
       AND (r.loan_id IS NULL OR r.list_status <> l.list_status OR r.loan_status <> l.status OR r.due_at <= ?)
     ORDER BY CASE WHEN r.loan_id IS NULL OR r.list_status <> l.list_status OR r.loan_status <> l.status THEN 0 ELSE 1 END,
       r.due_at, l.id
     LIMIT ?`,
  );
  const writeRead = db.prepare(
    `INSERT INTO payment_reads (loan_id, list_status, loan_status, read_at, due_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (loan_id) DO UPDATE SET list_status = excluded.list_status, loan_status = excluded.loan_status,
       read_at = excluded.read_at, due_at = excluded.due_at`,
  );

  const upsert = db.transaction((payments: readonly LoanPayment[], at: string, news: boolean): UpsertPaymentsResult => {
    const result: UpsertPaymentsResult = { inserted: 0, updated: 0, unchanged: 0, newlyFlagged: 0 };
    let seq = maxSeq.get()?.seq ?? 0;
    for (const payment of payments) {
      const facts = paymentFacts(payment);
      const before = existing.get(payment.id);
      const rawJson = JSON.stringify(payment);
      if (before === undefined) result.inserted += 1;
      else if (before.raw_json === rawJson) result.unchanged += 1;
      else result.updated += 1;
      let flagValue = before?.flag ?? null;
      let flaggedAt = before?.flagged_at ?? null;
      let flagSeq = before?.flag_seq ?? null;
      const raised = facts.flag !== null && (flagValue === null || FLAG_RANK[facts.flag] > FLAG_RANK[flagValue]);
      if (raised) {
        flagValue = facts.flag;
        flaggedAt = at;
        // A payment late but already paid when first seen is history, not news.
        const tell = news && (facts.flag === 'missed' || !facts.settled);
        flagSeq = tell ? ++seq : null;
        if (tell) result.newlyFlagged += 1;
      }
      upsertRow.run({
        id: payment.id,
        loanId: payment.loan,
        amountCents: facts.amountCents,
        dueDate: payment.payment_due_date,
        status: payment.payment_status,
        rawJson,
        at,
        isLate: sqlFlag(facts.isLate),
        delayedDays: facts.delayedDays,
        feesCents: facts.feesCents,
        flag: flagValue,
        flaggedAt,
        flagSeq,
      });
    }
    return result;
  });

  return {
    upsert: (payments, atMs, options = {}) => upsert(payments, isoFromMs(atMs), options.news ?? true),
    forLoan: (loanId) => loanPayments.all(loanId).map((row) => parseJsonColumn<LoanPayment>(row.raw_json)),
    byLoan() {
      const byLoan = new Map<number, LoanPayment[]>();
      for (const row of everyPayment.iterate()) {
        const list = byLoan.get(row.loan_id);
        const payment = parseJsonColumn<LoanPayment>(row.raw_json);
        if (list === undefined) byLoan.set(row.loan_id, [payment]);
        else list.push(payment);
      }
      return byLoan;
    },
    hasOverdueUnsettled: (loanId, today) => (overdueUnsettled.get(loanId, today)?.n ?? 0) > 0,
    stateOfLoan(loanId) {
      const row = oneState.get(loanId);
      return row === undefined ? undefined : fromStateRow(row);
    },
    states: () => allStates.all().map(fromStateRow),
    totals() {
      const row = totalsQuery.get();
      if (row === undefined) throw new Error('an aggregate query returned no row');
      return { loans: row.loans, ...countsOf(row) };
    },
    flaggedAfter: (seq, limit) =>
      flagged.all(seq, limit).map((row) => ({
        seq: row.flag_seq,
        flag: row.flag,
        flaggedAt: row.flagged_at,
        payment: parseJsonColumn<LoanPayment>(row.raw_json),
      })),
    lastFlagSeq: () => maxSeq.get()?.seq ?? 0,
    dueForRead: (nowMs, limit) =>
      due.all(isoFromMs(nowMs), limit).map((row) => ({
        loanId: row.id,
        listStatus: row.list_status,
        loanStatus: row.status,
        nextPaymentDate: row.next_payment_date,
        readBefore: row.read_before === 1,
      })),
    recordRead(read) {
      writeRead.run(
        read.loanId,
        read.listStatus,
        read.loanStatus,
        isoFromMs(read.atMs),
        read.nextAtMs === null ? null : isoFromMs(read.nextAtMs),
      );
    },
  };
}
