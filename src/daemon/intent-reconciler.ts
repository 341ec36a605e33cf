/**
 * Settles offers whose outcome we do not know: 'unknown' rows (the POST failed ambiguously) and
 * 'intent' rows left by a crash between writing the intent and hearing the answer.
 *
 * Reading first: a loan of ours for the request (stored by the account sync) says the offer was
 * placed and accepted. The spec has no list of our offers, so the one other way to ask is to send
 * the offer again: the service refuses a second offer by the same investor on the same request
 * (marketplace 4.2, rule 7), so it either places the offer that never arrived or answers that an offer
 * exists (refusal code `offer_exists`, whatever the service's words: src/service/refusal-texts.ts),
 * which settles it as placed. A re-send is bounded (unknown-offer-resends.ts: a few times, with
 * back-off, counted in the database), and only while the request is still listed (still open).
 * A row whose request has left the list, or whose re-sends are used up, is left alone until the
 * offer expiry, then marked expired, and only after a scan that read the whole list: a cut scan
 * (a list that shrank under it, a page bound) or a filtered one proves nothing about what is
 * absent. Meanwhile the row keeps reserving money, the cautious side.
 */
import type { Clock } from '../clock/clock.js';
import type { Logger } from '../log/logger.js';
import { InvalidArgumentError, ServiceError, type MarketplaceApi } from '../service/index.js';
import type { OfferRecord, Store } from '../store/index.js';
import { failureText, isClearRefusal } from './clear-refusal.js';
import { listingScan, type ScanCoverage } from './list-coverage.js';
import { DEFAULT_UNKNOWN_OFFER_RESENDS, resendVerdict, type UnknownOfferResendSettings } from './unknown-offer-resends.js';

/** The loan requests a scan of the list saw. */
export interface ListedRequests extends ScanCoverage {
  ids: ReadonlySet<number>;
  /** Whether `ids` is the whole open list: every page read, no list filter sent. */
  complete: boolean;
}

export interface ReconcileCounts {
  settled: number;
  stillUnknown: number;
}

export interface IntentReconcilerDeps {
  client: MarketplaceApi;
  store: Store;
  clock: Clock;
  log: Logger;
  offerExpiryMs: () => number;
  /** How often an unknown offer may be sent again (default DEFAULT_UNKNOWN_OFFER_RESENDS). */
  resends?: () => UnknownOfferResendSettings;
}

export class IntentReconciler {
  constructor(private readonly deps: IntentReconcilerDeps) {}

  /** Settles every unsettled offer against one scan of the list. */
  async reconcile(listed: ListedRequests): Promise<ReconcileCounts> {
    const asked = await this.settleListed(listed.ids);
    const aged = this.expireUnlisted(listed);
    return { settled: asked.settled + aged.settled, stillUnknown: aged.stillUnknown };
  }

  /**
   * Settles the unsettled offers on requests in `ids` (a page of the list, as the poll reads it)
   * by reading, or by sending again when a re-send is due; dry-run rows are settled wherever
   * their request is.
   */
  async settleListed(ids: ReadonlySet<number>): Promise<ReconcileCounts> {
    const { store, clock } = this.deps;
    let settled = 0;
    let stillUnknown = 0;
    for (const offer of store.offers.listByState(['intent', 'unknown'])) {
      if (offer.dryRun) {
        store.offers.setState(offer.id, 'placed', clock.now());
        settled += 1;
      } else if (ids.has(offer.loanRequestId)) {
        if (this.settledByLoan(offer) || (await this.resendIfDue(offer))) settled += 1;
        else stillUnknown += 1;
      }
    }
    return { settled, stillUnknown };
  }

  /**
   * After a scan: the unsettled offers whose request was not listed become 'expired' once older
   * than the offer expiry, if the scan read the whole list. Returns those left unsettled.
   */
  expireUnlisted(listed: ListedRequests): ReconcileCounts {
    const { store, clock } = this.deps;
    // Placed offers too: whether their request is still listed tells lost from still open
    // (docs/recording-format.md, `offer.status`).
    store.offers.noteListing(listingScan(store, listed), clock.now());
    let settled = 0;
    let stillUnknown = 0;
    for (const offer of store.offers.listByState(['intent', 'unknown'])) {
      if (offer.dryRun) continue;
      if (listed.ids.has(offer.loanRequestId)) stillUnknown += 1;
      else if (listed.complete && clock.now() - Date.parse(offer.createdAt) > this.deps.offerExpiryMs()) {
        store.offers.setState(offer.id, 'expired', clock.now());
        settled += 1;
      } else {
        stillUnknown += 1;
      }
    }
    return { settled, stillUnknown };
  }

  /** A loan of ours for the request (the account sync stored it): the offer was placed, and accepted. */
  private settledByLoan(offer: OfferRecord): boolean {
    const { store, clock, log } = this.deps;
    const loan = store.account.loanForRequest(offer.loanRequestId);
    if (loan === undefined) return false;
    const state = loan.status.toLowerCase() === 'pending' ? 'accepted' : 'funded';
    store.offers.setState(offer.id, state, clock.now());
    log.info(
      { loanRequestId: offer.loanRequestId, loanId: loan.id, state },
      'unknown offer settled by reading: a loan of ours exists for its request',
    );
    return true;
  }

  /** Sends the offer again when a re-send is due; true when that settled it. */
  private async resendIfDue(offer: OfferRecord): Promise<boolean> {
    const { store, clock, log } = this.deps;
    const settings = this.deps.resends?.() ?? DEFAULT_UNKNOWN_OFFER_RESENDS;
    const schedule = store.offers.resendSchedule(offer.id) ?? { resends: 0, nextAtMs: null };
    // An intent left by a crash may never have been sent: asked about at once. An unknown one was
    // sent a moment ago: the first re-send waits, so a lost answer is not chased at every poll.
    const firstDueMs = offer.state === 'intent' ? clock.now() : Date.parse(offer.createdAt) + settings.firstWaitMs;
    const verdict = resendVerdict(schedule, firstDueMs, clock.now(), settings);
    // Waiting, or no re-send left (said once, with the last one): read about only, quietly.
    if (verdict.kind !== 'resend') return false;
    // Counted before the POST: a process killed while it is in flight has used this try.
    store.offers.scheduleResend(offer.id, verdict.schedule);
    const last = verdict.resend >= settings.resends;
    log.info(
      { loanRequestId: offer.loanRequestId, resend: verdict.resend, of: settings.resends },
      `offer outcome unknown: sending it again (re-send ${verdict.resend} of ${settings.resends}); the service refuses a second offer on a request, so this places it or says ours exists`,
    );
    return this.askAgain(offer, { resend: verdict.resend, of: settings.resends, last, nextAtMs: verdict.schedule.nextAtMs });
  }

  private async askAgain(
    offer: OfferRecord,
    attempt: { resend: number; of: number; last: boolean; nextAtMs: number | null },
  ): Promise<boolean> {
    const { client, store, clock, log } = this.deps;
    try {
      const placed = await client.makeOffer(offer.loanRequestId, { offeredInterest: offer.rate, automateFund: offer.automateFund });
      store.offers.markPlaced(offer.id, placed, clock.now());
      log.info({ loanRequestId: offer.loanRequestId, resend: attempt.resend }, 'unknown offer settled: sent again and placed now');
      return true;
    } catch (error) {
      // Anything but the client's own errors is a bug: thrown (the row stays as it was, reserving).
      if (!(error instanceof ServiceError) && !(error instanceof InvalidArgumentError)) throw error;
      if (error.code === 'RULE_REFUSED' && error.refusal === 'offer_exists') {
        store.offers.setState(offer.id, 'placed', clock.now());
        log.info(
          { loanRequestId: offer.loanRequestId, resend: attempt.resend },
          'unknown offer settled: the service says our offer exists',
        );
        return true;
      }
      // Only a refusal lendbot recognises settles it as refused (clear-refusal.ts); an answer it
      // cannot read, or a refusal it does not recognise, may hide an offer: still unknown.
      if (isClearRefusal(error, 'offer')) {
        store.offers.markRefused(offer.id, failureText(error), clock.now());
        log.info(
          { loanRequestId: offer.loanRequestId, resend: attempt.resend, text: failureText(error) },
          'unknown offer settled: refused',
        );
        return true;
      }
      if (offer.state === 'intent') store.offers.markUnknown(offer.id, failureText(error), clock.now());
      const next = attempt.last
        ? 'no re-send left: it is not sent again, and stays reserved until a loan of ours shows it or its request leaves the list (then expired after risk.offer_expiry_hours)'
        : `next re-send not before ${attempt.nextAtMs === null ? 'the next poll' : new Date(attempt.nextAtMs).toISOString()}`;
      log.warn(
        { loanRequestId: offer.loanRequestId, code: error.code, text: failureText(error), resend: attempt.resend, of: attempt.of },
        `offer still unknown after re-send ${attempt.resend} of ${attempt.of}; its money stays reserved; ${next}`,
      );
      return false;
    }
  }
}
