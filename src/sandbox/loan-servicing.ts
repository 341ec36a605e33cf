/**
 * Funded loans over their life: the funding settles, payments fall due monthly and are paid on
 * time, late (with a fee) or missed as the request's hidden truth says; a missed payment sends the
 * loan to collection, which recovers part of the debt before the loan defaults. Money reaching the
 * sandbox investor is written to its ledger.
 *
 * An investor's offer that was accepted but not funded at once (no automate_fund, or not enough
 * money) is a `pending` loan from the acceptance on, as marketplace 4.7 lists "loans pending or funded":
 * that is how the investor learns of the acceptance. Funding later keeps the same loan (and id);
 * an acceptance that expires unfunded withdraws it.
 */
import { addMonths, paymentSchedule } from './amortization.js';
import type { Ledger } from './ledger.js';
import {
  COLLECTION_AFTER_MS,
  COLLECTION_FEE_SHARE,
  DEFAULT_AFTER_MS,
  FUNDING_DELAY_MS,
  type MarketContext,
  type MarketEvent,
} from './market-events.js';
import { DAY_MS } from '../clock/time-constants.js';
import type { LoanRecord, LoanRequestRecord, OfferRecord, PaymentRecord } from './market-types.js';
import { totalCents } from './offer-rules.js';

export const INVESTOR = 'investor';

interface LoanBookEntry {
  loan: LoanRecord;
  request: LoanRequestRecord;
  schedule: number[];
  fundingTransferId: number | null;
  /** When funding started; null while the loan waits for the investor's fund call. */
  fundingStartMs: number | null;
}

export class LoanBook {
  readonly loans = new Map<number, LoanRecord>();
  private readonly entries = new Map<number, LoanBookEntry>();
  /** Loans awaiting the investor's fund call, by accepted offer id. */
  private readonly awaiting = new Map<number, number>();
  private nextLoanId = 30_001;
  private nextPaymentId = 800_001;

  constructor(
    private readonly context: MarketContext,
    private readonly ledger: Ledger,
  ) {}

  /** Starts funding `offer` on `request`: a pending loan (the one awaiting funding, if any) and the investor's pending transfer. */
  startFunding(request: LoanRequestRecord, offer: OfferRecord): LoanRecord {
    const now = this.context.now();
    const awaitingId = this.awaiting.get(offer.id);
    const entry = (awaitingId === undefined ? undefined : this.entries.get(awaitingId)) ?? this.open(request, offer, now);
    this.awaiting.delete(offer.id);
    const loan = entry.loan;
    entry.fundingStartMs = now;
    if (offer.lender === INVESTOR) {
      entry.fundingTransferId = this.ledger.add(now, 'pending', {
        type: 'Fund Loans',
        amountCents: -loan.principalCents,
        sourceDest: `to loan ${loan.id}`,
        loanRequestId: request.id,
        loanId: loan.id,
        borrowerId: request.borrower.id,
      }).id;
    }
    this.context.schedule(now + FUNDING_DELAY_MS, { kind: 'funding-complete', loanId: loan.id });
    return loan;
  }

  /** The borrower accepted `offer` and it waits for the investor's fund call: a pending loan, no money moves. */
  openAwaitingFunding(request: LoanRequestRecord, offer: OfferRecord): LoanRecord {
    const entry = this.open(request, offer, this.context.now());
    this.awaiting.set(offer.id, entry.loan.id);
    return entry.loan;
  }

  /** The acceptance of `offerId` expired unfunded: its pending loan is no longer listed. */
  withdrawAwaitingFunding(offerId: number): void {
    const loanId = this.awaiting.get(offerId);
    if (loanId === undefined) return;
    this.awaiting.delete(offerId);
    this.loans.delete(loanId);
    this.entries.delete(loanId);
  }

  /** Drops a loan that nothing will read again (a resolved loan of a market that forgets, market.ts). */
  forget(loanId: number): void {
    this.loans.delete(loanId);
    this.entries.delete(loanId);
  }

  private open(request: LoanRequestRecord, offer: OfferRecord, now: number): LoanBookEntry {
    const principal = totalCents(request);
    const schedule = paymentSchedule(principal, offer.rate, request.loanTerms);
    const total = schedule.reduce((a, b) => a + b, 0);
    const loan: LoanRecord = {
      id: this.nextLoanId++,
      loanRequestId: request.id,
      offerId: offer.id,
      lender: offer.lender,
      principalCents: principal,
      rate: offer.rate,
      terms: request.loanTerms,
      monthlyPaymentCents: schedule[0] ?? 0,
      status: 'pending',
      createdMs: now,
      statusChangedMs: now,
      payments: [],
      receivedCents: 0,
      remainingCents: total,
      collectedCents: 0,
      collectionFeeCents: 0,
      originalDebtCents: total,
      resolvedMs: null,
    };
    const entry: LoanBookEntry = { loan, request, schedule, fundingTransferId: null, fundingStartMs: null };
    this.loans.set(loan.id, loan);
    this.entries.set(loan.id, entry);
    return entry;
  }

  /** The whole scheduled amount (principal plus interest) of a loan. */
  scheduledTotal(loanId: number): number {
    return this.entries.get(loanId)?.schedule.reduce((a, b) => a + b, 0) ?? 0;
  }

  /** The scheduled amount of the next unpaid month, in cents. */
  nextDue(loanId: number): { amountCents: number; dueMs: number } | undefined {
    const entry = this.entries.get(loanId);
    if (!entry || entry.fundingStartMs === null || (entry.loan.status !== 'funded' && entry.loan.status !== 'pending')) return undefined;
    const month = entry.loan.payments.length + 1;
    const amount = entry.schedule[month - 1];
    if (amount === undefined) return undefined;
    return { amountCents: amount, dueMs: addMonths(this.fundedAt(entry), month) };
  }

  /** Handles a loan event; returns false when the event is not a loan event. */
  handle(event: MarketEvent): boolean {
    switch (event.kind) {
      case 'funding-complete':
        this.completeFunding(event.loanId);
        return true;
      case 'payment-due':
        this.paymentDue(event.loanId, event.month);
        return true;
      case 'payment-paid':
        this.paymentPaid(event.loanId, event.paymentId);
        return true;
      case 'collection':
        this.collect(event.loanId);
        return true;
      case 'default':
        this.setStatus(event.loanId, 'default', true);
        return true;
      default:
        return false;
    }
  }

  private fundedAt(entry: LoanBookEntry): number {
    return (entry.fundingStartMs ?? entry.loan.createdMs) + FUNDING_DELAY_MS;
  }

  private completeFunding(loanId: number): void {
    const entry = this.entries.get(loanId);
    if (!entry) return;
    if (entry.fundingTransferId !== null) this.ledger.settle(entry.fundingTransferId, 'processed');
    this.setStatus(loanId, 'funded', false);
    this.context.schedule(addMonths(this.fundedAt(entry), 1), { kind: 'payment-due', loanId, month: 1 });
  }

  private paymentDue(loanId: number, month: number): void {
    const entry = this.entries.get(loanId);
    if (!entry || entry.loan.status !== 'funded') return;
    const now = this.context.now();
    const amount = entry.schedule[month - 1] ?? 0;
    const truth = entry.request.truth;
    const missed = truth.missedMonth === month;
    const lateDays = missed ? 0 : (truth.lateDays[month - 1] ?? 0);
    const payment: PaymentRecord = {
      id: this.nextPaymentId++,
      loanId,
      amountCents: amount,
      dueMs: now,
      status: missed ? 'Missed Payment' : 'pending',
      statusChangedMs: now,
      createdMs: now,
      lateDays,
      lateFeeCents: lateDays > 0 ? Math.max(1500, Math.round(amount * 0.05)) : 0,
    };
    entry.loan.payments.push(payment);
    if (missed) {
      this.setStatus(loanId, 'collection', false);
      this.context.schedule(now + COLLECTION_AFTER_MS, { kind: 'collection', loanId });
      return;
    }
    this.context.schedule(now + lateDays * DAY_MS, { kind: 'payment-paid', loanId, paymentId: payment.id });
    if (month < entry.schedule.length) {
      this.context.schedule(addMonths(this.fundedAt(entry), month + 1), { kind: 'payment-due', loanId, month: month + 1 });
    }
  }

  private paymentPaid(loanId: number, paymentId: number): void {
    const entry = this.entries.get(loanId);
    const payment = entry?.loan.payments.find((p) => p.id === paymentId);
    if (!entry || !payment) return;
    const now = this.context.now();
    payment.status = 'paid';
    payment.statusChangedMs = now;
    const received = payment.amountCents + payment.lateFeeCents;
    entry.loan.receivedCents += received;
    entry.loan.remainingCents -= payment.amountCents;
    this.credit(entry, 'Monthly Payments', received);
    const allPaid = entry.loan.payments.length === entry.schedule.length && entry.loan.payments.every((p) => p.status === 'paid');
    if (allPaid) this.setStatus(loanId, 'completed', true);
  }

  private collect(loanId: number): void {
    const entry = this.entries.get(loanId);
    if (!entry || entry.loan.status !== 'collection') return;
    const loan = entry.loan;
    loan.originalDebtCents = loan.remainingCents;
    const recovered = Math.round(loan.remainingCents * entry.request.truth.recoveryShare);
    const fee = Math.round(recovered * COLLECTION_FEE_SHARE);
    loan.collectedCents = recovered;
    loan.collectionFeeCents = fee;
    loan.receivedCents += recovered - fee;
    loan.remainingCents -= recovered;
    this.credit(entry, 'Collection', recovered - fee);
    this.context.schedule(this.context.now() + DEFAULT_AFTER_MS - COLLECTION_AFTER_MS, { kind: 'default', loanId });
  }

  private credit(entry: LoanBookEntry, type: string, cents: number): void {
    if (entry.loan.lender !== INVESTOR || cents <= 0) return;
    this.ledger.add(this.context.now(), 'processed', {
      type,
      amountCents: cents,
      sourceDest: `from loan ${entry.loan.id}`,
      loanRequestId: entry.request.id,
      loanId: entry.loan.id,
      borrowerId: entry.request.borrower.id,
    });
  }

  private setStatus(loanId: number, status: LoanRecord['status'], resolved: boolean): void {
    const loan = this.loans.get(loanId);
    if (!loan) return;
    loan.status = status;
    loan.statusChangedMs = this.context.now();
    if (resolved) loan.resolvedMs = this.context.now();
  }
}
