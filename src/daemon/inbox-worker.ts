/**
 * Works through the webhook inbox: every stored event not yet processed, oldest first, including
 * those left over from before a restart. A `new_loan_request_created` event is pre-filtered on its
 * data, then its request is fetched from the list endpoint and goes through the pipeline at once.
 * An event is marked processed only after its request was decided (or found to be gone), so a
 * crash in between means it is handled again after the restart, and the pipeline's own
 * once-per-request rule keeps that harmless.
 *
 * Failures back off instead of looping: an event that failed waits (exponential, with jitter)
 * before it is tried again, and three failures in a row (or a batch where every event tried
 * failed) end the pass; the next pass waits its own back-off (the service refusing our credentials, or down, fails every event
 * alike). The log says so once per back-off step, not per event.
 *
 * A request whose data failed is the pipeline's to retry (it waits its own back-off there): its
 * event stays unprocessed, is not counted as a failure (the events after it go on), and is not
 * even fetched again until the pipeline would try the request. On shutdown (stop()) no further
 * event is started; the one being handled finishes, and the rest stay in the inbox for the next start.
 */
import type { Clock } from '../clock/clock.js';
import type { Logger } from '../log/logger.js';
import { NEW_LOAN_REQUEST_TOPIC } from '../domain/index.js';
import type { MarketplaceApi } from '../service/index.js';
import type { InboxEvent, Store } from '../store/index.js';
import type { StoredEventWorker } from '../webhook/index.js';
import { Backoff, DEFAULT_BACKOFF, type BackoffSettings } from '../clock/backoff.js';
import type { Pipeline } from './pipeline.js';
import { findLoanRequest } from './request-finder.js';

/** What handling an event reads of it: the webhook listener hands these fields of an event it just stored. */
export type StoredEvent = Pick<InboxEvent, 'webhookUuid' | 'topic' | 'data'>;

/** Says whether an event's data could lead to an offer at all; a `false` saves the fetch. */
export type WebhookEventPrefilter = (data: Record<string, unknown>) => { pass: true } | { pass: false; reason: string };

const BATCH = 20;
const PASS = 'pass';
/** An event whose request the pipeline deferred: it stays unprocessed, and is no failure. */
const DEFERRED = Symbol('deferred');
type Handled = { kind: 'done' } | { kind: 'deferred' } | { kind: 'failed'; error: string };
// This many failures in a row end a pass: the cause is then most likely the service or our
// credentials, which every further event would only confirm at the cost of another request.
const FAILURES_ENDING_A_PASS = 3;

export class InboxWorker implements StoredEventWorker {
  private draining: Promise<void> | undefined;
  private again = false;
  private readonly eventBackoff: Backoff<string>;
  private readonly passBackoff: Backoff<typeof PASS>;
  private held = false;
  private stopping = false;
  /** When the last event was marked processed (the clock's ms): the health check's sign of progress. */
  private lastProcessedAtMs: number | undefined;
  /**
   * The last pass read the inbox to its end and handled every event in it, and no pass failed
   * since: no event waits but those stored after it, each of which calls drain(). Then the one
   * event a drain() is handed is the whole inbox, and is handled without reading it back.
   */
  private caughtUp = false;

  constructor(
    private readonly deps: {
      client: MarketplaceApi;
      store: Store;
      pipeline: Pipeline;
      clock: Clock;
      log: Logger;
      prefilter: WebhookEventPrefilter;
      backoff?: BackoffSettings;
      /** The clock back-off waits on (real time, even when `clock` is a simulated market's). */
      backoffClock?: Clock;
      random?: () => number;
    },
  ) {
    const backoffClock = deps.backoffClock ?? deps.clock;
    this.eventBackoff = new Backoff(backoffClock, deps.backoff ?? DEFAULT_BACKOFF, deps.random);
    this.passBackoff = new Backoff(backoffClock, deps.backoff ?? DEFAULT_BACKOFF, deps.random);
  }

  /** Stores keep arriving, but drain() does nothing until release() (the daemon's start settles offers first). */
  hold(): void {
    this.held = true;
    // Events stored while held call drain() in vain: the next pass reads the inbox.
    this.caughtUp = false;
  }

  release(): void {
    this.held = false;
  }

  /**
   * Shutdown: no event is started after this (drain() does nothing); resolves once the event being
   * handled, if any, is done. The events left stay unprocessed in the inbox for the next start.
   */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.draining;
  }

  /** When this worker last marked an event processed (the clock's ms), if it has. */
  get lastProgressAtMs(): number | undefined {
    return this.lastProcessedAtMs;
  }

  /** The webhook listener stored `event` (webhook-server.ts): drains the inbox, its failure logged. */
  wake(event: StoredEvent): void {
    this.drain(event).catch((error: unknown) => this.deps.log.error({ err: error }, 'inbox drain failed'));
  }

  /**
   * Processes every unprocessed event that is not backing off; calls made while draining make it
   * go round once more. While the last pass failed throughout, waits out its back-off first.
   * `stored`: the event the webhook listener just committed (it is in the inbox); when the inbox
   * held nothing else, it is handled at once instead of read back (a query saved per webhook).
   */
  drain(stored?: StoredEvent): Promise<void> {
    if (this.draining) {
      this.again = true;
      return this.draining;
    }
    if (this.held || this.stopping || !this.passBackoff.ready(PASS)) return Promise.resolve();
    const handed = stored !== undefined && this.caughtUp ? [stored] : undefined;
    this.draining = this.loop(handed).finally(() => {
      this.draining = undefined;
    });
    return this.draining;
  }

  private async loop(handed: StoredEvent[] | undefined): Promise<void> {
    do {
      this.again = false;
      const passed = await this.pass(handed);
      handed = undefined;
      if (!passed) return;
    } while (this.again && !this.stopping);
  }

  /**
   * One pass over the inbox (or over `handed`, the whole of it); false when it ended because
   * everything it tried failed.
   */
  private async pass(handed?: StoredEvent[]): Promise<boolean> {
    // Cleared at once: an event stored while this pass runs makes the loop go round again.
    this.caughtUp = false;
    let after: InboxEvent | undefined;
    let lastError: string | undefined;
    let everyEventHandled = true;
    for (;;) {
      let batch: StoredEvent[];
      if (handed !== undefined) {
        batch = handed;
        handed = undefined;
      } else {
        const read = this.deps.store.inbox.unprocessed(BATCH, after);
        after = read.at(-1);
        batch = read;
      }
      if (batch.length === 0) break;
      let tried = 0;
      let failedInRow = 0;
      for (const event of batch) {
        // Stopping ends the pass quietly: the events left wait in the inbox.
        if (this.stopping) return true;
        if (!this.eventBackoff.ready(event.webhookUuid)) {
          everyEventHandled = false;
          continue;
        }
        const handled = await this.handle(event);
        if (handled.kind === 'done') {
          tried += 1;
          failedInRow = 0;
          continue;
        }
        everyEventHandled = false;
        // A deferred request is its own matter, neither a failure nor a success of the service.
        if (handled.kind === 'deferred') continue;
        tried += 1;
        failedInRow += 1;
        lastError = handled.error;
        if (failedInRow >= FAILURES_ENDING_A_PASS) break;
      }
      if (failedInRow >= FAILURES_ENDING_A_PASS) everyEventHandled = false;
      if (tried > 0 && (failedInRow === tried || failedInRow >= FAILURES_ENDING_A_PASS)) {
        const step = this.passBackoff.failed(PASS);
        this.deps.log.warn(
          { error: lastError, waiting: this.deps.store.inbox.depth(), failures: step.failures, retryInMs: step.delayMs },
          'webhook events not processed; every one tried failed, backing off',
        );
        return false;
      }
      // A short batch was the last: an event stored since the query called drain(), which goes
      // round once more, so reading again now would only find nothing (a query per webhook saved).
      if (batch.length < BATCH) break;
    }
    if (this.passBackoff.step(PASS) !== undefined) {
      this.passBackoff.succeeded(PASS);
      this.deps.log.info('webhook events processed again');
    }
    this.caughtUp = everyEventHandled;
    return true;
  }

  /** Handles one event; unless done, it stays unprocessed. */
  private async handle(event: StoredEvent): Promise<Handled> {
    const { store, clock, log } = this.deps;
    try {
      const outcome = await this.outcomeOf(event);
      if (outcome === DEFERRED) return { kind: 'deferred' };
      const nowMs = clock.now();
      store.inbox.markProcessed(event.webhookUuid, outcome, nowMs);
      this.lastProcessedAtMs = nowMs;
      this.eventBackoff.succeeded(event.webhookUuid);
      return { kind: 'done' };
    } catch (error) {
      // An outage or a refusal: the event stays unprocessed and waits its back-off.
      const text = error instanceof Error ? error.message : String(error);
      const step = this.eventBackoff.failed(event.webhookUuid);
      log.debug(
        { webhookUuid: event.webhookUuid, err: error, failures: step.failures, retryInMs: step.delayMs },
        'webhook event not processed yet',
      );
      return { kind: 'failed', error: text };
    }
  }

  private async outcomeOf(event: StoredEvent): Promise<string | typeof DEFERRED> {
    if (event.topic !== NEW_LOAN_REQUEST_TOPIC) return 'ignored: unknown topic';
    const id = Number(event.data.loan_request_id);
    if (!Number.isSafeInteger(id)) return 'ignored: no loan_request_id';
    if (this.deps.store.decisions.has(id)) return 'duplicate: already decided';
    const filter = this.deps.prefilter(event.data);
    if (!filter.pass) return `prefiltered: ${filter.reason}`;
    // Its request waits after a failure of its data: not even fetched until it may be tried.
    if (this.deps.pipeline.waitingUntil(id) !== undefined) return DEFERRED;
    const amount = typeof event.data.loan_request_amount === 'number' ? event.data.loan_request_amount : undefined;
    const type = typeof event.data.loan_request_type === 'string' ? event.data.loan_request_type : undefined;
    const request = await findLoanRequest(this.deps.client, { loanRequestId: id, amount, type }, this.deps.log);
    if (!request) return 'not listed';
    const result = await this.deps.pipeline.process(request, 'webhook');
    // Not begun before shutdown: the event waits in the inbox for the next start.
    if (result.action === 'stopped') return DEFERRED;
    if (result.action !== 'deferred') return 'processed';
    // An outage counts as the event's failure (three in a row end the pass); the request's own is not one.
    if (result.deferred?.own === false && result.deferred.error !== undefined) throw result.deferred.error;
    return DEFERRED;
  }
}
