/**
 * Reads the payments of the investor's loans (marketplace 4.8) into the store. The endpoint takes one
 * loan and returns its whole payment array, with no "changed since" or paging, so the increment
 * is chosen here: each sync reads at most `maxLoans` loans, those never read or moved to another
 * list or status first (a missed payment moves a loan to collection), then those whose next read
 * is due. When a loan is next due a read:
 * - completed or defaulted: never again, unless it moves;
 * - a payment past its due date is neither paid nor missed: within the hour, to see it settle;
 * - otherwise at its `next_payment_date`, and at least once a day (the service may add fees or
 *   change a state without a date saying so); an hour later when that date has passed but the
 *   payment is not listed yet.
 * A loan's first read only takes a baseline: what was already late or missed then is counted,
 * not told (the notification check tells flags raised on later reads).
 */
import type { Clock } from '../clock/clock.js';
import type { Logger } from '../log/logger.js';
import type { LoanPayment } from '../domain/index.js';
import { ServiceError, type MarketplaceApi, type ServiceErrorCode, type ValidatedItems } from '../service/index.js';
import type { LoanDueForPayments, Store } from '../store/index.js';
import { HOUR_MS, DAY_MS } from '../clock/time-constants.js';

/** Loans whose payments one sync reads at most (each is one GET). */
const DEFAULT_PAYMENT_LOANS_PER_SYNC = 25;

const CLOSED_LISTS: ReadonlySet<string> = new Set(['completed', 'default']);
/** Failures that belong to one loan (the service does not know it, answers it in a shape or a size we cannot read, or sends it elsewhere). */
const LOAN_OWN_FAILURES: ReadonlySet<ServiceErrorCode> = new Set([
  'NOT_FOUND',
  'MALFORMED_RESPONSE',
  'HTTP_ERROR',
  'RESPONSE_TOO_LARGE',
  'REDIRECT_REFUSED',
]);

export interface PaymentSyncResult {
  loansRead: number;
  inserted: number;
  updated: number;
  /** Payments newly late or missed (the notification check tells each once). */
  newlyFlagged: number;
}

export class PaymentSync {
  constructor(private readonly deps: { client: MarketplaceApi; store: Store; clock: Clock; log: Logger; maxLoans?: number }) {}

  /** Reads the payments of the loans due for a read, at most `maxLoans` of them. */
  async sync(): Promise<PaymentSyncResult> {
    const { store, clock, log } = this.deps;
    const result: PaymentSyncResult = { loansRead: 0, inserted: 0, updated: 0, newlyFlagged: 0 };
    const due = store.payments.dueForRead(clock.now(), this.deps.maxLoans ?? DEFAULT_PAYMENT_LOANS_PER_SYNC);
    for (const loan of due) {
      const read = await this.read(loan);
      if (read === 'stop') break;
      if (read === 'skip') continue;
      for (const issue of read.issues) log.warn({ issue, loanId: loan.loanId }, 'payment left out');
      const own = read.items.filter((payment) => payment.loan === loan.loanId);
      if (own.length < read.items.length)
        log.warn({ loanId: loan.loanId, others: read.items.length - own.length }, "payments of another loan in a loan's payments left out");
      const nowMs = clock.now();
      const upserted = store.payments.upsert(own, nowMs, { news: loan.readBefore });
      store.payments.recordRead({
        loanId: loan.loanId,
        listStatus: loan.listStatus,
        loanStatus: loan.loanStatus,
        atMs: nowMs,
        nextAtMs: this.nextRead(loan, nowMs),
      });
      result.loansRead += 1;
      result.inserted += upserted.inserted;
      result.updated += upserted.updated;
      result.newlyFlagged += upserted.newlyFlagged;
      if (upserted.newlyFlagged > 0) {
        const state = store.payments.stateOfLoan(loan.loanId);
        log.warn(
          { loanId: loan.loanId, late: state?.late, missed: state?.missed, maxDelayedDays: state?.maxDelayedDays },
          'payment late or missed',
        );
      }
    }
    if (result.loansRead > 0) log.debug({ ...result }, 'payments synced');
    return result;
  }

  /**
   * A loan's payments; 'skip' when the failure is the loan's own (tried again in a day, so it never
   * holds the others up), 'stop' on an outage or a refusal of our credentials (the others would fail alike).
   */
  private async read(loan: LoanDueForPayments): Promise<ValidatedItems<LoanPayment> | 'skip' | 'stop'> {
    const { client, store, clock, log } = this.deps;
    try {
      return await client.listLoanPayments(loan.loanId);
    } catch (error) {
      if (error instanceof ServiceError && LOAN_OWN_FAILURES.has(error.code)) {
        log.warn({ err: error, loanId: loan.loanId }, 'payments of a loan not read; tried again in a day');
        store.payments.recordRead({
          loanId: loan.loanId,
          listStatus: loan.listStatus,
          loanStatus: loan.loanStatus,
          atMs: clock.now(),
          nextAtMs: clock.now() + DAY_MS,
        });
        return 'skip';
      }
      log.warn({ err: error, loanId: loan.loanId }, 'payments not read; the next sync tries again');
      return 'stop';
    }
  }

  private nextRead(loan: LoanDueForPayments, nowMs: number): number | null {
    if (CLOSED_LISTS.has(loan.listStatus)) return null;
    const today = new Date(nowMs).toISOString().slice(0, 10);
    if (this.deps.store.payments.hasOverdueUnsettled(loan.loanId, today)) return nowMs + HOUR_MS;
    if (loan.nextPaymentDate === null) return nowMs + DAY_MS;
    // The service writes `YYYY-MM-DD HH:MM:SS+00:00` (marketplace 2.5).
    const nextMs = Date.parse(loan.nextPaymentDate.replace(' ', 'T'));
    if (Number.isNaN(nextMs)) return nowMs + DAY_MS;
    if (nextMs <= nowMs) return nowMs + HOUR_MS;
    return Math.min(nextMs, nowMs + DAY_MS);
  }
}
