/**
 * Settles offers whose outcome we do not know: 'unknown' rows (the POST failed ambiguously) and
 * 'intent' rows left by a crash between writing the intent and hearing the answer.
 *
 * The service refuses a second offer by the same investor on the same request (spec 4.2, rule 7),
 * so asking again cannot create a duplicate: it either places the offer that never arrived or
 * answers that an offer exists (refusal code `offer_exists`, whatever the service's words:
 * src/service/refusal-texts.ts), which settles it as placed. We only ask while the request is
 * still listed (still open); a row whose request has left the list is left alone until the offer
 * expiry, then marked expired, and only after a scan that read the whole list: a cut scan (a
 * list that shrank under it, a page bound) or a filtered one proves nothing about what is absent.
 * Meanwhile the row keeps reserving money, the cautious side.
 */
import type { Clock } from '../clock/clock.js';
import type { Logger } from '../log/logger.js';
import { InvalidArgumentError, ServiceError, type MarketplaceApi } from '../service/index.js';
import type { OfferRecord, Store } from '../store/index.js';
import { failureText, isClearRefusal } from './clear-refusal.js';
import { listingScan, type ScanCoverage } from './list-coverage.js';

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

export class IntentReconciler {
  constructor(private readonly deps: { client: MarketplaceApi; store: Store; clock: Clock; log: Logger; offerExpiryMs: () => number }) {}

  /** Settles every unsettled offer against one scan of the list. */
  async reconcile(listed: ListedRequests): Promise<ReconcileCounts> {
    const asked = await this.settleListed(listed.ids);
    const aged = this.expireUnlisted(listed);
    return { settled: asked.settled + aged.settled, stillUnknown: aged.stillUnknown };
  }

  /**
   * Asks again about the unsettled offers on requests in `ids` (a page of the list, as the poll
   * reads it); dry-run rows are settled wherever their request is.
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
        if (await this.askAgain(offer)) settled += 1;
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

  private async askAgain(offer: OfferRecord): Promise<boolean> {
    const { client, store, clock, log } = this.deps;
    try {
      const placed = await client.makeOffer(offer.loanRequestId, { offeredInterest: offer.rate, automateFund: offer.automateFund });
      store.offers.markPlaced(offer.id, placed, clock.now());
      log.info({ loanRequestId: offer.loanRequestId }, 'unknown offer settled: placed now');
      return true;
    } catch (error) {
      // Anything but the client's own errors is a bug: thrown (the row stays as it was, reserving).
      if (!(error instanceof ServiceError) && !(error instanceof InvalidArgumentError)) throw error;
      if (error.code === 'RULE_REFUSED' && error.refusal === 'offer_exists') {
        store.offers.setState(offer.id, 'placed', clock.now());
        log.info({ loanRequestId: offer.loanRequestId }, 'unknown offer settled: it had been placed');
        return true;
      }
      // Only a refusal lendbot recognises settles it as refused (clear-refusal.ts); an answer it
      // cannot read, or a refusal it does not recognise, may hide an offer: still unknown.
      if (isClearRefusal(error, 'offer')) {
        store.offers.markRefused(offer.id, failureText(error), clock.now());
        log.info({ loanRequestId: offer.loanRequestId, text: failureText(error) }, 'unknown offer settled: refused');
        return true;
      }
      if (offer.state === 'intent') store.offers.markUnknown(offer.id, failureText(error), clock.now());
      log.warn(
        { loanRequestId: offer.loanRequestId, code: error.code, text: failureText(error) },
        'offer still unknown; its money stays reserved',
      );
      return false;
    }
  }
}
