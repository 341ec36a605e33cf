/**
 * Reconciliation with the service's loan lists (marketplace 4.7): loans are stored for reports,
 * exposure and outcomes, and what they reveal settles our offers. The spec has no way to read an
 * offer's status, so acceptance is detected here: a loan in the investor's lists whose
 * `loan_request_id` is one we offered on means our offer was accepted; `funded` (or any list but
 * current with a pending status) means it was funded. An accepted offer without automate_fund is
 * due for the funding job's next run at once (its back-off schedule starts over). The payments of
 * the loans are read after the lists, a bounded number of loans per sync (payment-sync.ts).
 */
import type { Clock } from '../clock/clock.js';
import type { Logger } from '../log/logger.js';
import { LOAN_STATUSES, type Loan } from '../domain/index.js';
import { collectPages, type MarketplaceApi } from '../service/index.js';
import type { OfferRecord, OfferState, Store } from '../store/index.js';
import { PaymentSync, type PaymentSyncResult } from './payment-sync.js';

export class AccountSync {
  private readonly payments: PaymentSync;

  constructor(
    private readonly deps: {
      client: MarketplaceApi;
      store: Store;
      clock: Clock;
      log: Logger;
      /** How long an offer reserves money (risk.offer_expiry_hours); funding by hand stops after it. */
      offerExpiryMs?: () => number;
      /** Loans whose payments one sync reads at most (default DEFAULT_PAYMENT_LOANS_PER_SYNC). */
      paymentLoansPerSync?: number;
    },
  ) {
    const { client, store, clock, log, paymentLoansPerSync } = deps;
    this.payments = new PaymentSync({
      client,
      store,
      clock,
      log,
      ...(paymentLoansPerSync === undefined ? {} : { maxLoans: paymentLoansPerSync }),
    });
  }

  /** Reads the four loan lists, stores them, moves our offers to accepted or funded, then reads payments. */
  async sync(): Promise<{ loans: number; offersSettled: number; payments: PaymentSyncResult }> {
    const { client, store, clock, log } = this.deps;
    let loans = 0;
    let offersSettled = 0;
    const listed = new Set<number>();
    let complete = true;
    for (const status of LOAN_STATUSES) {
      const { items, issues } = await collectPages(client.loanPages(status));
      for (const issue of issues) log.warn({ issue }, 'loan left out');
      // A loan left out may still be listed: do not forget pending loans on this read.
      if (issues.length > 0) complete = false;
      this.logLoanChanges(items, status);
      store.account.upsertLoans(items, status, clock.now());
      loans += items.length;
      for (const loan of items) {
        listed.add(loan.id);
        if (this.settleOffer(loan)) offersSettled += 1;
      }
    }
    if (complete) {
      const forgotten = store.account.forgetUnlistedPending(listed);
      if (forgotten > 0) log.info({ forgotten }, 'pending loans no longer listed forgotten (acceptances that expired unfunded)');
    }
    const payments = await this.payments.sync();
    return { loans, offersSettled, payments };
  }

  /** Logs loans that moved to another list since the last sync (completed, collection, default). */
  private logLoanChanges(loans: readonly Loan[], status: (typeof LOAN_STATUSES)[number]): void {
    if (status === 'current') return;
    const known = new Map(this.deps.store.account.loans().map((loan) => [loan.id, loan.listStatus]));
    for (const loan of loans) {
      const before = known.get(loan.id);
      if (before !== undefined && before !== status) {
        this.deps.log.info({ loanId: loan.id, loanRequestId: loan.loan_request_id, from: before, to: status }, `loan ${status}`);
      }
    }
  }

  private settleOffer(loan: Loan): boolean {
    const { store, clock } = this.deps;
    if (loan.loan_request_id === undefined) return false;
    const offer = store.offers.getByRequest(loan.loan_request_id);
    if (!offer || offer.dryRun) return false;
    const next: OfferState = loan.status.toLowerCase() === 'pending' ? 'accepted' : 'funded';
    if (offer.state === next || offer.state === 'funded') return false;
    store.offers.setState(offer.id, next, clock.now());
    this.deps.log.info(
      { loanRequestId: loan.loan_request_id, loanId: loan.id, rate: loan.interest_rate, amount: loan.loan_amount },
      next === 'accepted' ? 'offer accepted by the borrower' : 'offer funded: loan is running',
    );
    if (next === 'accepted' && !offer.automateFund) this.dueForFunding(offer);
    return true;
  }

  /** The borrower accepted an offer lendbot funds itself: the funding job tries it at its next run. */
  private dueForFunding(offer: OfferRecord): void {
    const { store, clock, log } = this.deps;
    store.offers.scheduleFunding(offer.id, { attempts: 0, nextAtMs: null });
    const expiryMs = this.deps.offerExpiryMs?.();
    if (expiryMs !== undefined && clock.now() >= Date.parse(offer.createdAt) + expiryMs) {
      log.warn(
        { loanRequestId: offer.loanRequestId, offerId: offer.serviceOfferId, createdAt: offer.createdAt },
        'offer accepted after its reservation expired (risk.offer_expiry_hours): not funded automatically; fund it with `lendbot api fund <offer id>` if the money is there',
      );
    }
  }
}
