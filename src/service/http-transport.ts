/**
 * One signed HTTP call to the marketplace, with the retry policy of its endpoint.
 *
 * - Every attempt is signed afresh (a new X-Timestamp), so a retry never carries a stale signature.
 * - Reads retry on network errors, 5xx and 429 with exponential backoff and jitter, honouring
 *   Retry-After.
 * - Offers and funding never retry: a failure after the request may have reached the service is
 *   reported as AMBIGUOUS_OUTCOME for the caller to reconcile.
 * - The paid provider endpoint retries only as configured (each call can cost money).
 * - A call refused with "Timestamp out of range" is signed again once with the service's time,
 *   learnt from the answer's Date header (see clock-skew.ts), whatever its class.
 * - Redirects are never followed by got: our signed headers must never reach another origin.
 *   A GET read follows a redirect on the base URL's origin (scheme, host and port), signed
 *   afresh, at most MAX_REDIRECTS times; anything else is REDIRECT_REFUSED, or AMBIGUOUS_OUTCOME
 *   for offers and funding (the request may have been applied before the redirect).
 * - Offers and funding are settled only by a clear answer: a readable 2xx, or a refusal lendbot
 *   recognises (a known text, or a status that refuses by itself such as fund's 400). Anything
 *   else after the request was sent is AMBIGUOUS_OUTCOME.
 * - Answers are read up to their endpoint's size limit, on the wire and once decompressed
 *   (response-limits.ts); reading stops at the limit.
 */
import http from 'node:http';
import https from 'node:https';
import got, { RequestError, type Got, type Response } from 'got';
import { equalJitterMs } from '../clock/backoff.js';
import type { Clock, Sleep } from '../clock/clock.js';
import type { Logger } from '../log/logger.js';
import { ServiceClock, type ClockSkewSettings } from './clock-skew.js';
import {
  AUTH_TEXTS,
  NOT_SENT_NETWORK_CODES,
  ServiceError,
  unreadableOutcome,
  type ServiceErrorCode,
  type ServiceErrorDetails,
} from './errors.js';
import { DEFAULT_REFUSALS, type RefusalTexts } from './refusal-texts.js';
import { answerSnippet, isWebPage } from './shown-text.js';
import { signRequest, type SignatureMode } from './hmac-signer.js';
import {
  ACCEPT_ENCODING,
  cancelPastLimit,
  decodeBody,
  responseLimitKey,
  type ResponseKind,
  type ResponseLimits,
} from './response-limits.js';

/** How an endpoint may be repeated after a failure. */
export type RetryClass =
  /** Safe to repeat: GETs and the banking-data read. */
  | 'read'
  /** Must never be repeated blindly: make offer, fund. */
  | 'unsafe'
  /** Safe but paid per call: repeated only `paidRetries` times. */
  | 'paid';

export interface RetrySettings {
  /** Extra attempts for reads after the first one. */
  readRetries: number;
  /** Extra attempts for paid calls (default 0: a retry may be billed). */
  paidRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for; the call fails with RATE_LIMITED. */
  maxRetryAfterMs: number;
}

export interface TransportSettings {
  baseUrl: string;
  apiKey: string;
  secretKey: string;
  bearerToken?: string | undefined;
  signatureMode: SignatureMode;
  /** Per-attempt timeout. */
  timeoutMs: number;
  retry: RetrySettings;
  clockSkew: ClockSkewSettings;
  userAgent: string;
  /** The refusal texts errors are classified with (default: the built-in table). */
  refusals?: RefusalTexts;
  /** The largest answer read, per kind of endpoint. */
  responseLimits: ResponseLimits;
}

export interface TransportDeps {
  clock: Clock;
  sleep: Sleep;
  /** A number in [0, 1) for jitter; injectable so tests are deterministic. */
  random: () => number;
  log: Logger;
}

export interface CallSpec {
  method: 'GET' | 'POST';
  /** A path under the base URL (`/api/v3/...`) or an absolute URL on the same host (a `next` link). */
  target: string;
  query?: ReadonlyArray<readonly [string, string]>;
  body?: unknown;
  retryClass: RetryClass;
  /** Also send `Authorization: Bearer` (the fund endpoint's header listing asks for it). */
  withBearer?: boolean;
  /** Which size limit the answer is held to. */
  responseKind: ResponseKind;
  /**
   * Unsafe calls: 4xx statuses that refuse whatever their text says (fund's 400, marketplace 4.3). Without
   * them only a recognised refusal text refuses, and any other 4xx is AMBIGUOUS_OUTCOME.
   */
  refusalStatuses?: readonly number[];
}

export interface CallResult {
  status: number;
  body: unknown;
  /** Method and path of the call, for error messages about its content. */
  method: string;
  path: string;
}

// Failures that prove the request never left this machine.

/** Same-origin redirects a GET read follows before it is refused. */
const MAX_REDIRECTS = 3;
// The statuses that send the client elsewhere; 300, 304 and the rest of 3xx do not.
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** One HTTP exchange: the next URL to ask for a followed redirect, else the call's result. */
type Exchange = { result: CallResult } | { redirectTo: URL };

export class HttpTransport {
  private readonly origin: URL;
  private readonly serviceClock: ServiceClock;
  private readonly agents = {
    http: new http.Agent({ keepAlive: true }),
    https: new https.Agent({ keepAlive: true }),
  };
  /** Requests on the wire, for abandon(). */
  private readonly inFlight = new Set<{ cancel(reason?: string): void }>();
  private readonly abandoned = new Latch();

  /**
   * got with the options every call shares, merged once: got normalises the options it is given
   * on every call, and passing only what differs (method, headers, body) costs less per call.
   */
  private readonly request: Got;

  constructor(
    private readonly settings: TransportSettings,
    private readonly deps: TransportDeps,
  ) {
    this.origin = new URL(settings.baseUrl);
    this.serviceClock = new ServiceClock(deps.clock, settings.clockSkew, deps.log);
    this.request = got.extend({
      // Bytes as they came: the transport counts them and inflates them itself, within limits.
      responseType: 'buffer',
      decompress: false,
      followRedirect: false,
      throwHttpErrors: false,
      retry: { limit: 0 },
      timeout: { request: settings.timeoutMs },
      agent: this.agents,
    });
  }

  /** Closes kept-alive connections. */
  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  /**
   * Shutdown: cancels every call in flight and refuses new ones, so a slow or silent marketplace
   * cannot hold a stop past its limit. A cancelled make_offer or fund that was sent fails as
   * AMBIGUOUS_OUTCOME (the daemon keeps it unknown, reserving its money, and reconciles it after
   * the restart); one not yet sent is a not-sent NETWORK_ERROR; retries stop. Returns how many
   * calls were in flight.
   */
  abandon(): number {
    this.abandoned.set();
    const cancelled = this.inFlight.size;
    for (const pending of this.inFlight) pending.cancel('lendbot is stopping');
    this.inFlight.clear();
    return cancelled;
  }

  /** Sends the call, retrying as its class allows; returns a 2xx answer or throws ServiceError. */
  async call(spec: CallSpec): Promise<CallResult> {
    let url = this.resolve(spec);
    const path = url.pathname + url.search;
    let hops = 0;
    const extraAttempts =
      spec.retryClass === 'read' ? this.settings.retry.readRetries : spec.retryClass === 'paid' ? this.settings.retry.paidRetries : 0;
    let skewCorrected = false;
    for (let attempt = 0; ;) {
      if (this.abandoned.isSet) throw new ServiceError('NETWORK_ERROR', 'not sent: lendbot is stopping', { method: spec.method, path });
      // Signed afresh for each attempt; the offset is remembered to judge a timestamp refusal.
      const signedWithOffset = this.serviceClock.currentOffsetSeconds();
      const timestamp = this.serviceClock.nowSeconds();
      try {
        const exchange = await this.attempt(spec, url, path, timestamp, hops);
        if ('result' in exchange) return exchange.result;
        // A redirect on our own origin, signed afresh: not a retry, the hop limit bounds it.
        url = exchange.redirectTo;
        hops += 1;
        continue;
      } catch (error) {
        if (
          error instanceof ServiceError &&
          error.code === 'AUTH_TIMESTAMP_OUT_OF_RANGE' &&
          !skewCorrected &&
          this.serviceClock.learn(error.serverDateMs, signedWithOffset, { method: spec.method, path })
        ) {
          // One more attempt with the corrected time, for every class including make_offer and
          // fund: a request refused for its timestamp was stopped by authentication, so it was
          // never applied and sending it again cannot make a second offer. It is not a retry.
          skewCorrected = true;
          continue;
        }
        if (!(error instanceof ServiceError) || !error.transient || attempt >= extraAttempts || this.abandoned.isSet) throw error;
        const delay = this.retryDelay(error, attempt);
        if (delay === undefined) throw error;
        this.deps.log.warn(
          { method: spec.method, path, code: error.code, status: error.status, attempt: attempt + 1, delayMs: delay },
          'marketplace call failed; retrying',
        );
        // A stop does not wait for the back-off: the call fails with its last error.
        await Promise.race([this.deps.sleep(delay), this.abandoned.wait]);
        if (this.abandoned.isSet) throw error;
        attempt += 1;
      }
    }
  }

  private resolve(spec: CallSpec): URL {
    if (/^https?:\/\//i.test(spec.target)) {
      const next = new URL(spec.target);
      // A `next` link is followed only on our own host: our signed headers must never go elsewhere.
      // The scheme and port are taken from the base URL, since a service behind a TLS proxy often
      // writes http:// links.
      if (next.hostname !== this.origin.hostname) {
        throw new ServiceError('MALFORMED_RESPONSE', `page link points to another host (${next.hostname}); not followed`, {
          method: spec.method,
          path: next.pathname + next.search,
        });
      }
      return new URL(next.pathname + next.search, this.origin);
    }
    const base = this.settings.baseUrl.replace(/\/+$/, '');
    const url = new URL(base + spec.target);
    for (const [key, value] of spec.query ?? []) url.searchParams.append(key, value);
    return url;
  }

  private retryDelay(error: ServiceError, attempt: number): number | undefined {
    const { baseDelayMs, maxDelayMs, maxRetryAfterMs } = this.settings.retry;
    if (error.retryAfterMs !== undefined) {
      return error.retryAfterMs > maxRetryAfterMs ? undefined : error.retryAfterMs;
    }
    return equalJitterMs(Math.min(maxDelayMs, baseDelayMs * 2 ** attempt), this.deps.random());
  }

  private async attempt(spec: CallSpec, url: URL, path: string, timestamp: number, hops: number): Promise<Exchange> {
    const started = performance.now();
    const response = await this.receive(spec, url, path, this.headers(spec, url, timestamp));
    const status = response.statusCode;
    this.deps.log.debug({ method: spec.method, path, status, ms: Math.round(performance.now() - started) }, 'marketplace call');
    if (status >= 300 && status < 400) return { redirectTo: this.redirectTarget(spec, path, response, url, hops) };
    const text = await this.bodyText(spec, path, response);
    const body = parseBody(text);
    if (status >= 200 && status < 300) {
      if (body.ok) return { result: { status, body: body.value, method: spec.method, path } };
      throw this.unreadable(spec, { method: spec.method, path, status, serviceText: snippet(text) }, 'not JSON');
    }
    throw this.statusError(spec, path, response, text, body);
  }

  /** The headers of one attempt, signed with its own timestamp. */
  private headers(spec: CallSpec, url: URL, timestamp: number): Record<string, string> {
    const headers: Record<string, string> = {
      ...signRequest({
        apiKey: this.settings.apiKey,
        secretKey: this.settings.secretKey,
        timestamp,
        mode: this.settings.signatureMode,
        url: url.toString(),
      }),
      Accept: 'application/json',
      'Accept-Encoding': ACCEPT_ENCODING,
      'User-Agent': this.settings.userAgent,
    };
    if (spec.withBearer && this.settings.bearerToken) headers.Authorization = `Bearer ${this.settings.bearerToken}`;
    return headers;
  }

  /**
   * Sends the request and reads the answer's bytes as they came, stopping as soon as they pass
   * the endpoint's limit, or at once when the Content-Length says they will: the body is never
   * buffered beyond it.
   */
  private async receive(spec: CallSpec, url: URL, path: string, headers: Record<string, string>): Promise<Response<Buffer>> {
    const limit = this.settings.responseLimits[spec.responseKind];
    const pending = this.request(url, {
      method: spec.method,
      headers,
      responseType: 'buffer',
      ...(spec.body === undefined ? {} : { json: spec.body }),
    });
    const watch = cancelPastLimit(pending, limit);
    this.inFlight.add(pending);
    try {
      return await pending;
    } catch (error) {
      if (watch.tooLarge()) throw this.tooLargeError(spec, path, watch.status(), 'on the wire');
      throw this.networkError(spec, path, error);
    } finally {
      this.inFlight.delete(pending);
    }
  }

  /** The answer's text, inflated within the endpoint's limit. */
  private async bodyText(spec: CallSpec, path: string, response: Response<Buffer>): Promise<string> {
    const limit = this.settings.responseLimits[spec.responseKind];
    const decoded = await decodeBody(response.rawBody ?? Buffer.alloc(0), response.headers['content-encoding'], limit);
    if (decoded.ok) return decoded.text;
    const status = response.statusCode;
    if (decoded.problem === 'too-large') throw this.tooLargeError(spec, path, status, 'once decompressed');
    const why =
      decoded.problem === 'unsupported-encoding'
        ? `Content-Encoding "${decoded.encoding}" is not one lendbot asked for`
        : `the body does not inflate (${decoded.message})`;
    throw this.unreadable(spec, { method: spec.method, path, status }, why);
  }

  /**
   * A 2xx (or an answer of any status) that cannot be read: for offers and funding the request
   * may have been applied, so the outcome is unknown (never a refusal); for the rest the answer
   * is malformed.
   */
  private unreadable(spec: CallSpec, details: ServiceErrorDetails, why: string): ServiceError {
    if (spec.retryClass === 'unsafe') return unreadableOutcome(details, why);
    return new ServiceError('MALFORMED_RESPONSE', `answer is ${why === 'not JSON' ? why : `unreadable: ${why}`}`, details);
  }

  private tooLargeError(spec: CallSpec, path: string, status: number | undefined, where: string): ServiceError {
    const limit = this.settings.responseLimits[spec.responseKind];
    const key = responseLimitKey(spec.responseKind);
    const details = { method: spec.method, path, status };
    if (spec.retryClass === 'unsafe') {
      return unreadableOutcome(details, `larger than ${key}, ${limit} bytes, ${where}; not read`);
    }
    return new ServiceError(
      'RESPONSE_TOO_LARGE',
      `answer larger than ${limit} bytes ${where}; reading stopped at the limit (raise ${key} if the service really sends answers this large)`,
      details,
    );
  }

  /**
   * Where a 3xx sends a GET read on our own origin, or the error that refuses it. Our signed
   * headers never go to another origin; offers and funding never follow (the request may have
   * been applied: AMBIGUOUS_OUTCOME), paid calls and other POSTs neither.
   */
  private redirectTarget(spec: CallSpec, path: string, response: Response<Buffer>, from: URL, hops: number): URL {
    const status = response.statusCode;
    let target: URL | undefined;
    try {
      target = response.headers.location ? new URL(response.headers.location, from) : undefined;
    } catch {
      target = undefined;
    }
    // Only the origin is named: a Location may carry credentials or tokens in its path or query.
    const where = target ? `redirect to ${target.origin}` : 'redirect without a usable Location';
    const details = { method: spec.method, path, status };
    if (spec.retryClass === 'unsafe') {
      throw new ServiceError('AMBIGUOUS_OUTCOME', `${where} not followed: the request may have been applied`, details);
    }
    let why: string | undefined;
    if (target === undefined) why = 'nowhere to go';
    else if (target.origin !== this.origin.origin) why = "another origin than the base URL's: the signed headers never leave it";
    else if (spec.retryClass === 'paid') why = 'a paid call never follows a redirect';
    else if (spec.method !== 'GET') why = 'only GET reads follow a redirect';
    else if (!REDIRECT_STATUSES.has(status)) why = `${status} is not a redirect lendbot follows`;
    else if (hops >= MAX_REDIRECTS) why = `more than ${MAX_REDIRECTS} redirects`;
    if (why !== undefined || target === undefined) {
      throw new ServiceError('REDIRECT_REFUSED', `${where} not followed (${why ?? 'nowhere to go'})`, details);
    }
    this.deps.log.debug({ method: spec.method, path, status, to: target.pathname }, 'marketplace redirect followed on the same origin');
    return target;
  }

  private networkError(spec: CallSpec, path: string, error: unknown): ServiceError {
    const code = error instanceof RequestError ? error.code : undefined;
    const uploaded = error instanceof RequestError ? error.timings?.upload !== undefined : true;
    const details = { method: spec.method, path, cause: error };
    const reason = error instanceof Error ? error.message : String(error);
    if (spec.retryClass === 'unsafe' && uploaded && !(code && NOT_SENT_NETWORK_CODES.has(code))) {
      return new ServiceError(
        'AMBIGUOUS_OUTCOME',
        `failed after the request was sent (${code ?? reason}); it may have been applied`,
        details,
      );
    }
    return new ServiceError('NETWORK_ERROR', `network failure (${code ?? reason})`, details);
  }

  private statusError(spec: CallSpec, path: string, response: Response<Buffer>, text: string, body: ParsedBody): ServiceError {
    const status = response.statusCode;
    const serviceText = body.ok ? serviceTextOf(body.value) : snippet(text);
    const refusal = (this.settings.refusals ?? DEFAULT_REFUSALS).codeOf(serviceText);
    const details = { method: spec.method, path, status, serviceText, refusal };
    if (status === 401 || status === 403) {
      const known = AUTH_TEXTS.find(([text]) => serviceText === text);
      const code: ServiceErrorCode = known ? known[1] : 'AUTH_FORBIDDEN';
      const date = Date.parse(response.headers.date ?? '');
      return new ServiceError(code, 'authentication refused', { ...details, serverDateMs: Number.isNaN(date) ? undefined : date });
    }
    if (status === 429) {
      const retryAfterMs = parseRetryAfter(response.headers['retry-after'], this.serviceClock.nowMs());
      return new ServiceError('RATE_LIMITED', 'rate limited', { ...details, retryAfterMs });
    }
    if (spec.retryClass === 'unsafe') return unsafeStatusError(spec, details);
    if (status === 400) return new ServiceError('RULE_REFUSED', 'refused', details);
    if (status === 404) return new ServiceError('NOT_FOUND', 'not found', details);
    if (status < 500 && refusal !== undefined) return new ServiceError('RULE_REFUSED', 'refused', details);
    if (status >= 500) return new ServiceError('SERVER_ERROR', 'server error', details);
    return new ServiceError('HTTP_ERROR', 'unexpected status', details);
  }
}

/**
 * An offer or fund call answered with an error status other than authentication (401, 403) and
 * 429. The status of most offer refusals is "not shown" (marketplace 4.2), so only a clear refusal
 * settles it: a text lendbot recognises, or a status that refuses by itself (fund's 400). A 5xx,
 * or a 4xx whose text says nothing lendbot knows, may come after the service applied the
 * request: the outcome is unknown, never a refusal that would release the money.
 */
function unsafeStatusError(spec: CallSpec, details: ServiceErrorDetails & { status: number }): ServiceError {
  const { status, refusal } = details;
  if (status >= 400 && status < 500 && (refusal !== undefined || (spec.refusalStatuses ?? []).includes(status))) {
    return new ServiceError('RULE_REFUSED', 'refused', details);
  }
  if (status >= 500) return new ServiceError('AMBIGUOUS_OUTCOME', 'server error; the request may have been applied', details);
  return new ServiceError('AMBIGUOUS_OUTCOME', 'is not a refusal lendbot recognises; the request may have been applied', details);
}

type ParsedBody = { ok: true; value: unknown } | { ok: false };

function parseBody(text: string): ParsedBody {
  if (text.trim() === '') return { ok: true, value: null };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/** The service's own explanation: `detail` or `message` (marketplace part 7). */
function serviceTextOf(body: unknown): string | undefined {
  if (body && typeof body === 'object') {
    const record = body as Record<string, unknown>;
    for (const key of ['detail', 'message']) {
      const value = record[key];
      if (typeof value === 'string') return value;
      if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value.join('; ');
    }
  }
  return undefined;
}

/** The answer's text for an error message; a web page is named by its title, not quoted (shown-text.ts). */
function snippet(text: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  if (isWebPage(trimmed)) return answerSnippet(trimmed);
  return trimmed.length > 200 ? `${trimmed.slice(0, 200)}…` : trimmed;
}

/** Retry-After as milliseconds from now: delay-seconds or an HTTP date. */
function parseRetryAfter(header: string | string[] | undefined, nowMs: number): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

/** A flag set once, with a promise that resolves when it is. */
class Latch {
  isSet = false;
  readonly wait: Promise<void>;
  private release: () => void = () => undefined;

  constructor() {
    this.wait = new Promise((resolve) => {
      this.release = resolve;
    });
  }

  set(): void {
    this.isSet = true;
    this.release();
  }
}
