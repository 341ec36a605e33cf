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
 */
import http from 'node:http';
import https from 'node:https';
import got, { RequestError, type Got, type Response } from 'got';
import type { Clock, Sleep } from '../clock/clock.js';
import type { Logger } from '../log/logger.js';
import { ServiceClock, type ClockSkewSettings } from './clock-skew.js';
import { AUTH_TEXTS, ServiceError, type ServiceErrorCode } from './errors.js';
import { DEFAULT_REFUSALS, type RefusalTexts } from './refusal-texts.js';
import { signRequest, type SignatureMode } from './hmac-signer.js';

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
}

export interface CallResult {
  status: number;
  body: unknown;
  /** Method and path of the call, for error messages about its content. */
  method: string;
  path: string;
}

// Failures that prove the request never left this machine.
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH']);

export class HttpTransport {
  private readonly origin: URL;
  private readonly serviceClock: ServiceClock;
  private readonly agents = {
    http: new http.Agent({ keepAlive: true }),
    https: new https.Agent({ keepAlive: true }),
  };

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
      responseType: 'text',
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

  /** Sends the call, retrying as its class allows; returns a 2xx answer or throws ServiceError. */
  async call(spec: CallSpec): Promise<CallResult> {
    const url = this.resolve(spec);
    const path = url.pathname + url.search;
    const extraAttempts =
      spec.retryClass === 'read'
        ? this.settings.retry.readRetries
        : spec.retryClass === 'paid'
          ? this.settings.retry.paidRetries
          : 0;
    let skewCorrected = false;
    for (let attempt = 0; ; ) {
      // Signed afresh for each attempt; the offset is remembered to judge a timestamp refusal.
      const signedWithOffset = this.serviceClock.currentOffsetSeconds();
      const timestamp = this.serviceClock.nowSeconds();
      try {
        return await this.attempt(spec, url, path, timestamp);
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
        if (!(error instanceof ServiceError) || !error.transient || attempt >= extraAttempts) throw error;
        const delay = this.retryDelay(error, attempt);
        if (delay === undefined) throw error;
        this.deps.log.warn(
          { method: spec.method, path, code: error.code, status: error.status, attempt: attempt + 1, delayMs: delay },
          'marketplace call failed; retrying',
        );
        await this.deps.sleep(delay);
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
      const url = new URL(next.pathname + next.search, this.origin);
      return url;
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
    const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** attempt);
    // "Equal jitter": at least half the backoff, so retries spread out but never bunch at zero.
    return Math.round(ceiling / 2 + (ceiling / 2) * this.deps.random());
  }

  private async attempt(spec: CallSpec, url: URL, path: string, timestamp: number): Promise<CallResult> {
    const headers: Record<string, string> = {
      ...signRequest({
        apiKey: this.settings.apiKey,
        secretKey: this.settings.secretKey,
        timestamp,
        mode: this.settings.signatureMode,
        url: url.toString(),
      }),
      Accept: 'application/json',
      'User-Agent': this.settings.userAgent,
    };
    if (spec.withBearer && this.settings.bearerToken) headers.Authorization = `Bearer ${this.settings.bearerToken}`;
    const started = performance.now();
    let response: Response<string>;
    try {
      response = await this.request(url, {
        method: spec.method,
        headers,
        ...(spec.body === undefined ? {} : { json: spec.body }),
      });
    } catch (error) {
      throw this.networkError(spec, path, error);
    }
    const ms = Math.round(performance.now() - started);
    this.deps.log.debug({ method: spec.method, path, status: response.statusCode, ms }, 'marketplace call');
    const body = parseBody(response.body);
    if (response.statusCode >= 200 && response.statusCode < 300) {
      if (body.ok) return { status: response.statusCode, body: body.value, method: spec.method, path };
      throw new ServiceError('MALFORMED_RESPONSE', 'answer is not JSON', {
        method: spec.method,
        path,
        status: response.statusCode,
        serviceText: snippet(response.body),
      });
    }
    throw this.statusError(spec, path, response, body);
  }

  private networkError(spec: CallSpec, path: string, error: unknown): ServiceError {
    const code = error instanceof RequestError ? error.code : undefined;
    const uploaded = error instanceof RequestError ? error.timings?.upload !== undefined : true;
    const details = { method: spec.method, path, cause: error };
    const reason = error instanceof Error ? error.message : String(error);
    if (spec.retryClass === 'unsafe' && uploaded && !(code && NOT_SENT_CODES.has(code))) {
      return new ServiceError(
        'AMBIGUOUS_OUTCOME',
        `failed after the request was sent (${code ?? reason}); it may have been applied`,
        details,
      );
    }
    return new ServiceError('NETWORK_ERROR', `network failure (${code ?? reason})`, details);
  }

  private statusError(
    spec: CallSpec,
    path: string,
    response: Response<string>,
    body: ParsedBody,
  ): ServiceError {
    const status = response.statusCode;
    const serviceText = body.ok ? serviceTextOf(body.value) : snippet(response.body);
    const refusal = (this.settings.refusals ?? DEFAULT_REFUSALS).codeOf(serviceText);
    const details = { method: spec.method, path, status, serviceText, refusal };
    if (status === 401 || status === 403) {
      const known = AUTH_TEXTS.find(([text]) => serviceText === text);
      const code: ServiceErrorCode = known ? known[1] : 'AUTH_FORBIDDEN';
      const date = Date.parse(response.headers.date ?? '');
      return new ServiceError(code, 'authentication refused', { ...details, serverDateMs: Number.isNaN(date) ? undefined : date });
    }
    if (status === 400) return new ServiceError('RULE_REFUSED', 'refused', details);
    if (status === 404) return new ServiceError('NOT_FOUND', 'not found', details);
    if (status === 429) {
      const retryAfterMs = parseRetryAfter(response.headers['retry-after'], this.serviceClock.nowMs());
      return new ServiceError('RATE_LIMITED', 'rate limited', { ...details, retryAfterMs });
    }
    // The status of most offer refusals is "not shown" (spec 4.2): a recognised text decides.
    if (status < 500 && refusal !== undefined) return new ServiceError('RULE_REFUSED', 'refused', details);
    if (status >= 500) {
      if (spec.retryClass === 'unsafe') {
        return new ServiceError('AMBIGUOUS_OUTCOME', 'server error; the request may have been applied', details);
      }
      return new ServiceError('SERVER_ERROR', 'server error', details);
    }
    return new ServiceError('HTTP_ERROR', 'unexpected status', details);
  }
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

/** The service's own explanation: `detail` or `message` (spec part 7). */
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

function snippet(text: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  return trimmed.length > 200 ? `${trimmed.slice(0, 200)}…` : trimmed;
}

/** Retry-After as milliseconds from now: delay-seconds or an HTTP date. */
export function parseRetryAfter(header: string | string[] | undefined, nowMs: number): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}
