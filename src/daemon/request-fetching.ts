/**
 * The data source one request is decided with in the pipeline: the service's, each fetch timed
 * as the request's 'enrich' step. A failed fetch is noted (the decide step throws it, and the
 * pipeline defers the request); on the request's last try, a failure of its own is answered as
 * "not had" instead, and its reason is kept for the decision (request-retries.ts says when a try
 * is the last).
 */
import type { DecisionReason } from '../domain/decision-reason.js';
import type { LoanRequest } from '../domain/index.js';
import type { DataSource, Fetched } from '../engine/index.js';
import type { RequestRetries } from './request-retries.js';
import { isRequestOwnFailure } from './service-data.js';

/** A data fetch of the request being decided that failed. */
export interface DataFailure {
  error: unknown;
  own: boolean;
  /** banking_data, borrower_history or the provider's name. */
  what: string;
}

/** The request's data source, and what became of its fetches. */
export interface RequestFetching {
  data: DataSource<false>;
  /** The failure the decide step was stopped by, if one was. */
  failure: () => DataFailure | undefined;
  /** Reasons for data given up on (the request's last try). */
  givenUp: DecisionReason[];
}

/** Times one step of a request (pipeline.ts adds each into the decision row's timings). */
export type StepTimer = <T>(step: string, work: () => Promise<T> | T) => Promise<T>;

/** The code of a failure (the service's error code), or ERROR. */
export function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : 'ERROR';
}

/** The data source for deciding `request` now, over the service's `data`. */
export function fetchingFor(request: LoanRequest, data: DataSource<false>, retries: RequestRetries, timed: StepTimer): RequestFetching {
  const lastTry = retries.lastTry(request.id);
  const givenUp: DecisionReason[] = [];
  let failure: DataFailure | undefined;
  const watch = async <T>(what: string, fetch: () => Promise<Fetched<T>>): Promise<Fetched<T>> => {
    const answer = await timed('enrich', fetch);
    if (answer.ok || answer.outage === undefined) return answer;
    const own = isRequestOwnFailure(answer.outage);
    if (own && lastTry) {
      const tries = (retries.history(request.id)?.own ?? 0) + 1;
      givenUp.push({ code: 'data_unreadable', what, tries: String(tries), errorCode: errorCode(answer.outage) });
      return { ok: false, detail: answer.detail, ...(answer.billed === undefined ? {} : { billed: answer.billed }) };
    }
    failure = { error: answer.outage, own, what };
    return answer;
  };
  return {
    data: {
      bankingData: (req) => watch('banking_data', () => data.bankingData(req)),
      borrowerHistory: (req) => watch('borrower_history', () => data.borrowerHistory(req)),
      providerResult: (req, provider) => watch(provider, () => data.providerResult(req, provider)),
    },
    failure: () => failure,
    givenUp,
  };
}
