/**
 * Feeding the metrics without touching the code they measure: the pipeline's decisions are heard
 * through its listener (labels come from its codes, never from reason texts), and the
 * marketplace client's calls are wrapped on the instance the composition root built.
 */
import type { Clock } from '../clock/clock.js';
import type { DecisionReason } from '../domain/decision-reason.js';
import { ServiceError, type MarketplaceApi } from '../service/index.js';
import type { RequestSource, Store } from '../store/index.js';
import type { LendbotMetrics, OfferOutcome } from './metrics.js';
import { reasonLabel } from './reason-label.js';

/** What the metrics read of a decision (the daemon pipeline's result holds this and more). */
export interface DecisionSeen {
  loanRequestId: number;
  action: string;
  reasons: readonly DecisionReason[];
  /** The guard's refusal code. */
  guard?: string | undefined;
  /** What became of the offer sent. */
  placement?: 'placed' | 'refused' | 'unknown' | 'exists' | undefined;
}

/** Where decisions are heard from: the daemon's pipeline (ops needs no more of it). */
export interface DecisionFeed {
  onDecided(listener: (request: { id: number }, source: RequestSource, result: DecisionSeen) => void): void;
}

const OFFER_OUTCOMES: Record<NonNullable<DecisionSeen['placement']>, OfferOutcome | undefined> = {
  placed: 'placed',
  refused: 'refused',
  unknown: 'ambiguous',
  // Recorded before (a crash, a duplicate): nothing was sent this time.
  exists: undefined,
};

/** What an offer decision came to at the service; undefined when nothing was sent. */
export function offerOutcomeOf(result: DecisionSeen): OfferOutcome | undefined {
  return result.placement === undefined ? undefined : OFFER_OUTCOMES[result.placement];
}

/** The decisive reason as a label: codes for the guard and the service, the strategy's first words otherwise. */
export function decisionReasonLabel(result: DecisionSeen): string {
  if (result.guard !== undefined) return `guard ${result.guard}`;
  if (result.placement === 'refused') return 'service refused';
  if (result.placement !== undefined) return `offer ${result.placement}`;
  return reasonLabel(result.reasons.at(-1));
}

/** Counts requests, decisions and offers, and times webhook-to-offer, for every request decided. */
export function instrumentPipeline(pipeline: DecisionFeed, deps: { metrics: LendbotMetrics; store: Store; clock: Clock }): void {
  const { metrics, store, clock } = deps;
  pipeline.onDecided((request, source, result) => {
    metrics.requestsSeen.inc({ source });
    metrics.decisions.inc({ action: result.action, reason: decisionReasonLabel(result) });
    const outcome = offerOutcomeOf(result);
    if (outcome !== undefined) metrics.offers.inc({ outcome });
    if (outcome === 'placed' && source === 'webhook') {
      const storedMs = store.inbox.waitingSinceMs(request.id);
      if (storedMs !== undefined) metrics.webhookToOfferSeconds.observe(Math.max(0, clock.now() - storedMs) / 1000);
    }
  });
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
        const startedAt = performance.now();
        const result: unknown = (value as (...a: unknown[]) => unknown).apply(target, args);
        if (result instanceof Promise) {
          const timed = (): void => metrics.apiCallSeconds.observe({ endpoint: property }, (performance.now() - startedAt) / 1000);
          return result.then(
            (ok: unknown) => {
              timed();
              count(property);
              return ok;
            },
            (error: unknown) => {
              timed();
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
