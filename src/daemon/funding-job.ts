/**
 * Funds accepted offers of strategies with `automate_fund: false` (spec 4.3). Acceptance is
 * detected by AccountSync (a pending loan for a request we offered on). Funding is never retried
 * blindly: an ambiguous answer leaves the offer 'accepted' with the error noted, and the next sync
 * shows whether the loan got funded.
 */
import type { Clock } from '../clock/clock.js';
import type { Logger } from '../log/logger.js';
import { ServiceError, type MarketplaceApi } from '../service/index.js';
import type { Store } from '../store/index.js';

export class FundingJob {
  private readonly attempted = new Set<number>();

  constructor(private readonly deps: { client: MarketplaceApi; store: Store; clock: Clock; log: Logger; dryRun: boolean }) {}

  async run(): Promise<{ funded: number; refused: number }> {
    const { client, store, clock, log, dryRun } = this.deps;
    let funded = 0;
    let refused = 0;
    if (dryRun) return { funded, refused };
    for (const offer of store.offers.listByState(['accepted'])) {
      if (offer.automateFund || offer.dryRun || offer.serviceOfferId === null) continue;
      // One attempt per process: a refusal or an ambiguous answer waits for the next sync.
      if (this.attempted.has(offer.id)) continue;
      this.attempted.add(offer.id);
      try {
        await client.fundAcceptedOffer(offer.serviceOfferId);
        store.offers.setState(offer.id, 'funded', clock.now());
        log.info({ loanRequestId: offer.loanRequestId, offerId: offer.serviceOfferId }, 'accepted offer funded');
        funded += 1;
      } catch (error) {
        if (!(error instanceof ServiceError)) throw error;
        refused += 1;
        log.warn({ loanRequestId: offer.loanRequestId, code: error.code, text: error.serviceText }, 'funding refused or unknown');
      }
    }
    return { funded, refused };
  }
}
