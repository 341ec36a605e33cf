/**
 * Settles offers whose outcome we do not know: 'unknown' rows (the POST failed ambiguously) and
 * 'intent' rows left by a crash between writing the intent and hearing the answer.
 *
 * The service refuses a second offer by the same investor on the same request (spec 4.2, rule 7),
 * so asking again cannot create a duplicate: it either places the offer that never arrived or
 * answers "already made an offer", which settles it as placed. We only ask while the request is
 * still listed (still open); a row whose request has left the list is left alone until the offer
 * expiry, then marked expired. Meanwhile the row keeps reserving money, the cautious side.
 */
import type { Clock } from '../clock/clock.js';
import type { Logger } from '../log/logger.js';
import { ServiceError, type MarketplaceApi } from '../service/index.js';
import type { OfferRecord, Store } from '../store/index.js';
import { isAlreadyOfferedText } from './offer-placer.js';

export class IntentReconciler {
  constructor(
    private readonly deps: { client: MarketplaceApi; store: Store; clock: Clock; log: Logger; offerExpiryMs: () => number },
  ) {}

  /** `listedIds`: the loan requests the latest poll saw. */
  async reconcile(listedIds: ReadonlySet<number>): Promise<{ settled: number; stillUnknown: number }> {
    const { store, clock } = this.deps;
    let settled = 0;
    let stillUnknown = 0;
    for (const offer of store.offers.listByState(['intent', 'unknown'])) {
      if (offer.dryRun) {
        store.offers.setState(offer.id, 'placed', clock.now());
        continue;
      }
      if (listedIds.has(offer.loanRequestId)) {
        if (await this.askAgain(offer)) settled += 1;
        else stillUnknown += 1;
      } else if (clock.now() - Date.parse(offer.createdAt) > this.deps.offerExpiryMs()) {
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
      if (!(error instanceof ServiceError)) throw error;
      if (error.code === 'RULE_REFUSED' && isAlreadyOfferedText(error.serviceText)) {
        store.offers.setState(offer.id, 'placed', clock.now());
        log.info({ loanRequestId: offer.loanRequestId }, 'unknown offer settled: it had been placed');
        return true;
      }
      if (error.code === 'RULE_REFUSED') {
        store.offers.markRefused(offer.id, `${error.code}: ${error.serviceText ?? error.message}`, clock.now());
        return true;
      }
      if (offer.state === 'intent') store.offers.markUnknown(offer.id, error.message, clock.now());
      log.warn({ loanRequestId: offer.loanRequestId, code: error.code }, 'offer still unknown');
      return false;
    }
  }
}
