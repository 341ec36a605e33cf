/**
 * Works through the webhook inbox: every stored event not yet processed, oldest first, including
 * those left over from before a restart. A `new_loan_request_created` event is pre-filtered on its
 * data, then its request is fetched from the list endpoint and goes through the pipeline at once.
 * An event is marked processed only after its request was decided (or found to be gone), so a
 * crash in between means it is handled again after the restart, and the pipeline's own
 * once-per-request rule keeps that harmless.
 */
import type { Clock } from '../clock/clock.js';
import type { Logger } from '../log/logger.js';
import type { MarketplaceApi } from '../service/index.js';
import type { InboxEvent, Store } from '../store/index.js';
import type { Pipeline } from './pipeline.js';
import { findLoanRequest } from './request-finder.js';

export const NEW_LOAN_REQUEST_TOPIC = 'new_loan_request_created';

/** Says whether an event's data could lead to an offer at all; a `false` saves the fetch. */
export type EventPrefilter = (data: Record<string, unknown>) => { pass: true } | { pass: false; reason: string };

export class InboxWorker {
  private draining: Promise<void> | undefined;
  private again = false;

  constructor(
    private readonly deps: {
      client: MarketplaceApi;
      store: Store;
      pipeline: Pipeline;
      clock: Clock;
      log: Logger;
      prefilter: EventPrefilter;
    },
  ) {}

  /** Processes every unprocessed event; calls made while draining make it go round once more. */
  drain(): Promise<void> {
    if (this.draining) {
      this.again = true;
      return this.draining;
    }
    this.draining = this.loop().finally(() => {
      this.draining = undefined;
    });
    return this.draining;
  }

  private async loop(): Promise<void> {
    do {
      this.again = false;
      for (;;) {
        const batch = this.deps.store.inbox.unprocessed(20);
        if (batch.length === 0) break;
        for (const event of batch) await this.handle(event);
      }
    } while (this.again);
  }

  private async handle(event: InboxEvent): Promise<void> {
    const { store, clock, log } = this.deps;
    const outcome = await this.outcomeOf(event).catch((error: unknown) => {
      // An outage: leave the event unprocessed; the next drain (or the poll) picks it up.
      log.warn({ webhookUuid: event.webhookUuid, error: error instanceof Error ? error.message : String(error) }, 'webhook event not processed yet');
      return undefined;
    });
    if (outcome !== undefined) store.inbox.markProcessed(event.webhookUuid, outcome, clock.now());
  }

  private async outcomeOf(event: InboxEvent): Promise<string> {
    if (event.topic !== NEW_LOAN_REQUEST_TOPIC) return 'ignored: unknown topic';
    const id = Number(event.data.loan_request_id);
    if (!Number.isSafeInteger(id)) return 'ignored: no loan_request_id';
    if (this.deps.store.decisions.has(id)) return 'duplicate: already decided';
    const filter = this.deps.prefilter(event.data);
    if (!filter.pass) return `prefiltered: ${filter.reason}`;
    const amount = typeof event.data.loan_request_amount === 'number' ? event.data.loan_request_amount : undefined;
    const type = typeof event.data.loan_request_type === 'string' ? event.data.loan_request_type : undefined;
    const request = await findLoanRequest(this.deps.client, { loanRequestId: id, amount, type }, this.deps.log);
    if (!request) return 'not listed';
    await this.deps.pipeline.process(request, 'webhook');
    return 'processed';
  }
}
