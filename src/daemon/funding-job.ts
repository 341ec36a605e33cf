/**
 * Funds the accepted offers of strategies with `automate_fund: false` (marketplace 4.3), once each.
 *
 * The spec has no way to read an offer's status, so acceptance is found two ways: the account
 * sync sees a pending loan for the request (the offer becomes 'accepted'), and this job asks the
 * fund endpoint itself. Every pending manual offer (placed or accepted, live, within its
 * reservation, risk.offer_expiry_hours) is tried on a back-off schedule kept in the store: a 400
 * before the borrower accepts means "not yet"; a 201 means funding started and the offer is
 * 'funded' from then on, so neither this process nor a restarted one calls again.
 *
 * Before each call the guard's balance rule is checked (checkFunding): a refusal is logged and
 * retried on the same schedule, never sent. An ambiguous answer (a timeout, a 5xx, a 2xx whose body
 * cannot be read) is not repeated at once: the service refuses a second fund of a processed offer,
 * so the later attempt is safe, and the next sync shows whether the loan is being funded. No
 * failure releases the offer's reservation.
 */
import { backoffCeilingMs } from '../clock/backoff.js';
import type { Clock } from '../clock/clock.js';
import { reasonText } from '../domain/decision-reason.js';
import type { Logger } from '../log/logger.js';
import { checkFunding, type RiskLimits } from '../risk/index.js';
import type { Cents } from '../domain/index.js';
import { ServiceError, type MarketplaceApi } from '../service/index.js';
import type { OfferRecord, Store } from '../store/index.js';
import { isClearRefusal } from './clear-refusal.js';

/** Waits between fund attempts of one offer: 1 minute, doubling, at most an hour. */
const FUNDING_BACKOFF = { baseMs: 60_000, maxMs: 3_600_000 } as const;
/** Each wait is shortened by up to this share at random, so offers placed together spread out. */
const JITTER_SHARE = 0.2;

export interface FundingJobDeps {
  client: MarketplaceApi;
  store: Store;
  clock: Clock;
  log: Logger;
  dryRun: boolean;
  /** The guard's balance (the BalanceTracker): read before a fund call, re-read after one. */
  balance: { current(): Promise<Cents>; refresh(): Promise<Cents> };
  limits: () => RiskLimits;
  /**
   * Runs each attempt between two pipeline requests, so an offer being decided never sees the
   * money of an offer being funded as both free and unspent.
   */
  pipeline?: { exclusive<T>(job: () => Promise<T>): Promise<T> };
}

export type FundingAttempt = 'funded' | 'not_yet' | 'guard_refused' | 'ambiguous' | 'failed' | 'settled_meanwhile';

export interface FundingRunSummary {
  funded: number;
  /** Refused by the service (400: not accepted yet, or not fundable now). */
  notYet: number;
  /** Refused by the guard's balance rule; nothing was sent. */
  guardRefused: number;
  /** Timeouts, resets and 5xx: outcome unknown (AMBIGUOUS_OUTCOME) or other failures. */
  failed: number;
}

export class FundingJob {
  constructor(private readonly deps: FundingJobDeps) {}

  async run(): Promise<FundingRunSummary> {
    const summary: FundingRunSummary = { funded: 0, notYet: 0, guardRefused: 0, failed: 0 };
    if (this.deps.dryRun) return summary;
    const due = this.deps.store.offers.dueForFunding({ nowMs: this.deps.clock.now(), expiryMs: this.deps.limits().offerExpiryMs });
    for (const offer of due) {
      const attempt = await this.exclusive(() => this.attempt(offer.id));
      if (attempt === 'funded') summary.funded += 1;
      else if (attempt === 'not_yet') summary.notYet += 1;
      else if (attempt === 'guard_refused') summary.guardRefused += 1;
      else if (attempt === 'ambiguous' || attempt === 'failed') summary.failed += 1;
    }
    return summary;
  }

  private exclusive<T>(job: () => Promise<T>): Promise<T> {
    return this.deps.pipeline ? this.deps.pipeline.exclusive(job) : job();
  }

  private async attempt(offerId: number): Promise<FundingAttempt> {
    const { client, store, clock, log } = this.deps;
    // Read again: a sync may have settled the offer since the list was read.
    const offer = store.offers.get(offerId);
    if (offer === undefined || offer.serviceOfferId === null || (offer.state !== 'placed' && offer.state !== 'accepted'))
      return 'settled_meanwhile';
    const facts = { loanRequestId: offer.loanRequestId, offerId: offer.serviceOfferId, state: offer.state };

    const limits = this.deps.limits();
    const nowMs = clock.now();
    const reservedByOthersCents = store.offers.reserved({
      nowMs,
      expiryMs: limits.offerExpiryMs,
      dryRun: false,
      includeManual: limits.reserveManualOffers,
      exceptOfferId: offer.id,
    });
    const guard = checkFunding(
      { totalCents: offer.totalAmountCents, balanceCents: await this.deps.balance.current(), reservedByOthersCents },
      limits,
    );
    if (!guard.allowed) {
      const retryAt = this.retryLater(offer);
      // Expected now and then for an offer not accepted yet; worth a warning once it is.
      const level = offer.state === 'accepted' ? 'warn' : 'info';
      log[level](
        { ...facts, code: guard.code, reason: reasonText(guard.reason), retryAt },
        'funding refused by the guard; not sent, tried again later',
      );
      return 'guard_refused';
    }

    try {
      await client.fundAcceptedOffer(offer.serviceOfferId);
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      // No failure releases the offer's money: it stays placed or accepted, reserving, until a
      // 201 or the sync says it is funded (or its reservation expires).
      const retryAt = this.retryLater(offer);
      const details = { ...facts, code: error.code, status: error.status, text: error.serviceText, retryAt };
      if (error.code === 'RULE_REFUSED') {
        // Before the borrower accepts, the service refuses (precondition 2): "not yet".
        if (offer.state === 'accepted') log.warn(details, 'fund call refused by the service; tried again later');
        else log.debug(details, 'fund call refused: not accepted yet');
        return 'not_yet';
      }
      if (isClearRefusal(error, 'fund')) {
        log.warn(details, 'fund call failed before the service acted on it; tried again later');
        return 'failed';
      }
      // A timeout, a 5xx, an answer that cannot be read: funding may have started.
      log.warn(
        details,
        'fund call outcome unknown: not repeated before the next attempt; the next sync shows whether the loan is being funded',
      );
      return 'ambiguous';
    }

    store.offers.setState(offer.id, 'funded', clock.now());
    log.info({ loanRequestId: offer.loanRequestId, offerId: offer.serviceOfferId }, 'accepted offer funded: funding started');
    // The offer no longer reserves its money; the pending transfer must show in the balance at once.
    await this.deps.balance.refresh();
    return 'funded';
  }

  /** Records a failed attempt and returns when the next one is due (ISO, for the log). */
  private retryLater(offer: OfferRecord): string {
    const { store, clock } = this.deps;
    const attempts = (store.offers.fundSchedule(offer.id)?.attempts ?? 0) + 1;
    const ceiling = backoffCeilingMs(attempts, FUNDING_BACKOFF);
    const waitMs = Math.round(ceiling * (1 - JITTER_SHARE * Math.random()));
    const nextAtMs = clock.now() + waitMs;
    store.offers.scheduleFunding(offer.id, { attempts, nextAtMs });
    return new Date(nextAtMs).toISOString();
  }
}
