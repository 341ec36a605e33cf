/**
 * Feeding the metrics without touching the code they measure: the pipeline's `process` and the
 * marketplace client's calls are wrapped on the instances the composition root built.
 */
import type { Clock } from '../clock/clock.js';
import type { Pipeline, PipelineResult } from '../daemon/pipeline.js';
import { ServiceError, type MarketplaceApi } from '../service/index.js';
import { msFromIso, type RequestSource, type Store } from '../store/index.js';
import { reasonLabel, type LendbotMetrics, type OfferOutcome } from './metrics.js';

// The pipeline's reason texts for the outcomes of an offer it sent (src/daemon/pipeline.ts).
const REFUSED_PREFIX = 'service refused:';
const UNKNOWN_PREFIX = 'offer outcome unknown:';
const EXISTS_PREFIX = 'offer already recorded';

/** What an offer decision came to at the service; undefined when nothing was sent. */
export function offerOutcomeOf(result: PipelineResult): OfferOutcome | undefined {
  const last = result.reasons.at(-1) ?? '';
  if (result.action === 'skip') return last.startsWith(REFUSED_PREFIX) ? 'refused' : undefined;
  if (result.action !== 'offer' || last.startsWith(EXISTS_PREFIX)) return undefined;
  return last.startsWith(UNKNOWN_PREFIX) ? 'ambiguous' : 'placed';
}

/** Counts requests, decisions and offers, and times webhook-to-offer, for every request processed. */
export function instrumentPipeline(pipeline: Pipeline, deps: { metrics: LendbotMetrics; store: Store; clock: Clock }): void {
  const { metrics, store, clock } = deps;
  // While the pipeline runs, the webhook event that brought the request is still unprocessed,
  // so the partial index on unprocessed events finds it without scanning the inbox.
  const receivedAt = store.db.prepare<[number], { received_at: string | null }>(
    `SELECT MIN(received_at) AS received_at FROM webhook_inbox
     WHERE processed_at IS NULL AND json_extract(data_json, '$.loan_request_id') = ?`,
  );
  const process = pipeline.process.bind(pipeline);
  pipeline.process = async (request, source: RequestSource) => {
    const result = await process(request, source);
    if (result.action === 'already') return result;
    metrics.requestsSeen.inc({ source });
    metrics.decisions.inc({ action: result.action, reason: reasonLabel(result.reasons.at(-1)) });
    const outcome = offerOutcomeOf(result);
    if (outcome !== undefined) metrics.offers.inc({ outcome });
    if (outcome === 'placed' && source === 'webhook') {
      const stored = receivedAt.get(request.id)?.received_at;
      if (stored) metrics.webhookToOfferSeconds.observe(Math.max(0, clock.now() - msFromIso(stored)) / 1000);
    }
    return result;
  };
}

/**
 * The client, with every call counted by endpoint (the client's method name) and code ('ok' or
 * the ServiceError code). Paged listings count each page fetched.
 */
export function instrumentClient<C extends MarketplaceApi>(
  client: C,
  metrics: LendbotMetrics,
  /** Also hears every call's outcome (the service health tracker). */
  onCall?: (endpoint: string, error?: unknown) => void,
): C {
  const count = (endpoint: string, error?: unknown): void => {
    onCall?.(endpoint, error);
    if (error === undefined) {
      metrics.apiCalls.inc({ endpoint, code: 'ok' });
      return;
    }
    const code = error instanceof ServiceError ? error.code : 'EXCEPTION';
    metrics.apiCalls.inc({ endpoint, code });
    metrics.apiErrors.inc({ endpoint, code });
  };
  return new Proxy(client, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || typeof property !== 'string' || property === 'close') return value;
      return (...args: unknown[]): unknown => {
        const result: unknown = (value as (...a: unknown[]) => unknown).apply(target, args);
        if (result instanceof Promise) {
          return result.then(
            (ok: unknown) => {
              count(property);
              return ok;
            },
            (error: unknown) => {
              count(property, error);
              throw error;
            },
          );
        }
        if (isAsyncIterable(result)) return countPages(result, (error) => count(property, error));
        return result;
      };
    },
  });
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}

async function* countPages<T>(pages: AsyncIterable<T>, count: (error?: unknown) => void): AsyncGenerator<T> {
  const iterator = pages[Symbol.asyncIterator]();
  let done = false;
  try {
    for (;;) {
      let next: IteratorResult<T>;
      try {
        next = await iterator.next();
      } catch (error) {
        done = true;
        count(error);
        throw error;
      }
      if (next.done) {
        done = true;
        return;
      }
      count();
      yield next.value;
    }
  } finally {
    // A consumer that stops early (break) must still close the underlying listing.
    if (!done) await iterator.return?.();
  }
}
