/**
 * Acting on an offer decision, idempotently across crashes:
 *   1. write the intent (unique per loan request) BEFORE the POST;
 *   2. POST make_offer once;
 *   3. store the outcome: placed, refused (with the service's text) or unknown.
 * Only a clear refusal (clear-refusal.ts: a refusal lendbot recognises, or a failure before
 * anything was sent) is stored `refused` and releases the money. Any other failure, an answer
 * lendbot cannot read above all (a 2xx means the offer exists, whatever its body), is `unknown`:
 * it keeps reserving its money and counts toward exposure and the daily caps until reconciled.
 * A request whose intent already exists is never posted again from here: an 'unknown' or a stale
 * 'intent' row is settled by the IntentReconciler, by reading first and by a bounded number of
 * re-sends with back-off (unknown-offer-resends.ts).
 */
import type { Clock } from '../clock/clock.js';
import type { Logger } from '../log/logger.js';
import type { LoanRequest, Offer, PlaceOutcome } from '../domain/index.js';
import { InvalidArgumentError, ServiceError, type MarketplaceApi } from '../service/index.js';
import type { ModelledOutcome } from '../engine/index.js';
import type { Store } from '../store/index.js';
import { failureText, isClearRefusal } from './clear-refusal.js';

/** The service's answer when an offer on this request already exists (marketplace 4.2, rule 7). */
function isAlreadyOfferedText(text: string | undefined): boolean {
  return text !== undefined && /already made an offer/i.test(text);
}

/** What the deciding strategy's models said of the offer: a dry run keeps it in the paper book. */
export interface PaperTerms {
  strategy: string;
  modelled?: ModelledOutcome | undefined;
  repayProbability?: number | undefined;
}

export class OfferPlacer {
  constructor(private readonly deps: { client: MarketplaceApi; store: Store; clock: Clock; log: Logger; dryRun: boolean }) {}

  /**
   * Places one offer. `onIntent` hears the intent row's id once it is committed, before the POST:
   * an approved proposal notes it, so a placing the process stopped in the middle of is known
   * afterwards as that proposal's.
   */
  async place(
    request: LoanRequest,
    rate: number,
    automateFund: boolean,
    paper?: PaperTerms,
    onIntent?: (offerId: number) => void,
  ): Promise<PlaceOutcome> {
    const { store, clock, log, dryRun } = this.deps;
    const intent = store.offers.createIntent({ request, rate, automateFund, dryRun, atMs: clock.now() });
    if (!intent.created) return { kind: 'exists', state: intent.existing.state };
    const id = intent.offer.id;
    onIntent?.(id);
    if (dryRun) {
      // A dry run stops before the POST; the simulated offer still reserves money in its own scope,
      // and goes into the paper book with what the models said of it (an agent's: modelled by none).
      store.offers.setState(id, 'placed', clock.now());
      store.paper.record({
        offerId: id,
        loanRequestId: request.id,
        strategy: paper?.strategy ?? 'agent',
        modelled: paper?.modelled,
        repayProbability: paper?.repayProbability,
        atMs: clock.now(),
      });
      return { kind: 'placed', serviceOfferId: null };
    }
    let offer: Offer;
    try {
      offer = await this.deps.client.makeOffer(request.id, { offeredInterest: rate, automateFund });
    } catch (error) {
      return this.settleFailure(id, request.id, error);
    }
    store.offers.markPlaced(id, offer, clock.now());
    log.info({ loanRequestId: request.id, offerId: offer.id, rate, automateFund }, 'offer placed');
    return { kind: 'placed', serviceOfferId: offer.id };
  }

  private settleFailure(id: number, loanRequestId: number, error: unknown): PlaceOutcome {
    const { store, clock, log } = this.deps;
    // Anything but the client's own errors is a bug: thrown. The intent row stays and keeps its
    // money reserved until the reconciler settles it.
    if (!(error instanceof ServiceError) && !(error instanceof InvalidArgumentError)) throw error;
    if (
      error instanceof ServiceError &&
      error.code === 'RULE_REFUSED' &&
      (error.refusal === 'offer_exists' || isAlreadyOfferedText(error.serviceText))
    ) {
      // Our own earlier offer (made before a crash, or by hand): it exists, so it is placed.
      store.offers.setState(id, 'placed', clock.now());
      log.info({ loanRequestId }, 'offer already existed at the service; recorded as placed');
      return { kind: 'placed', serviceOfferId: null };
    }
    if (!isClearRefusal(error, 'offer')) {
      // It may exist: it keeps its money reserved until the reconciler settles it.
      const text = error instanceof ServiceError && error.code === 'AMBIGUOUS_OUTCOME' ? error.message : failureText(error);
      store.offers.markUnknown(id, text, clock.now());
      log.warn(
        { loanRequestId, code: error.code, text },
        'offer outcome unknown; its money stays reserved; it is settled by reading, and sent again at most unknown_offers.resends times, with back-off',
      );
      return { kind: 'unknown', text };
    }
    // A refusal lendbot recognises, or a failure before anything was sent: no offer exists. The
    // row stays, so the request is not offered again by a later poll.
    const text = failureText(error);
    const serviceText = error instanceof ServiceError ? error.serviceText : undefined;
    store.offers.markRefused(id, text, clock.now());
    log.warn({ loanRequestId, code: error.code, text }, 'offer refused');
    return { kind: 'refused', text, serviceText };
  }
}
