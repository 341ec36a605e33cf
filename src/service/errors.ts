/**
 * Errors of the marketplace client. Every error carries a stable `code` for programs, the
 * request's method and path (never credentials or signatures), the HTTP status when there was
 * one, the service's own `detail`/`message` text, and the underlying `cause`.
 */

import { AppError } from '../domain/index.js';
import type { RefusalCode } from './refusal-texts.js';

export type ServiceErrorCode =
  /** 403 "Authentication credentials were not provided." */
  | 'AUTH_MISSING_CREDENTIALS'
  /** 403 "Invalid HMAC": signature wrong or expired. */
  | 'AUTH_INVALID_HMAC'
  /** 403 "Invalid API Key": key not found or revoked. */
  | 'AUTH_INVALID_API_KEY'
  /** 403 "Timestamp out of range": check the machine's clock. */
  | 'AUTH_TIMESTAMP_OUT_OF_RANGE'
  /** 401/403 with any other text. */
  | 'AUTH_FORBIDDEN'
  /**
   * 400, or another 4xx whose text is a recognised refusal (refusal-texts.ts): the service refused
   * by one of its rules (offer rules, fund preconditions, bad id). `refusal` says which, if known.
   */
  | 'RULE_REFUSED'
  /** 404: no such loan request, aggregation or score. */
  | 'NOT_FOUND'
  /** 429: too many requests; `retryAfterMs` says when to come back if the service said. */
  | 'RATE_LIMITED'
  /** 5xx on a request that is safe to repeat. */
  | 'SERVER_ERROR'
  /** Connection refused, DNS failure, reset or timeout on a request that is safe to repeat. */
  | 'NETWORK_ERROR'
  /**
   * An offer or fund call whose outcome is unknown: it may have been applied. Reconcile; never
   * resend blindly. Also a 2xx answer that cannot be read, a redirect, or a 4xx whose text is not
   * a recognised refusal (docs/service-client.md, "Unreadable answers to offers and funding").
   */
  | 'AMBIGUOUS_OUTCOME'
  /**
   * A redirect that was not followed: to another origin (our signed headers never leave the base
   * URL's origin), of a paid call, of a POST, or past the hop limit. The message names the
   * Location's origin.
   */
  | 'REDIRECT_REFUSED'
  /**
   * An answer larger than its endpoint's limit (`service.max_response_bytes`), on the wire or once
   * decompressed; reading stopped at the limit. Not retried at once: the same answer would come.
   */
  | 'RESPONSE_TOO_LARGE'
  /** The answer was not what the spec says (bad JSON, wrong shape, a `next` to another host). */
  | 'MALFORMED_RESPONSE'
  /** Any other HTTP status. */
  | 'HTTP_ERROR';

export interface ServiceErrorDetails {
  method: string;
  /** Path and query of the request, without host or credentials. */
  path: string;
  status?: number | undefined;
  /** The service's `detail` or `message` text, when it sent one. */
  serviceText?: string | undefined;
  /** The code of `serviceText` in the refusal table, when it is a text lendbot recognises. */
  refusal?: RefusalCode | undefined;
  retryAfterMs?: number | undefined;
  /** The answer's Date header (the service's clock), on authentication refusals. */
  serverDateMs?: number | undefined;
  cause?: unknown;
}

/** A failed call to the marketplace. */
export class ServiceError extends AppError {
  override readonly name = 'ServiceError';
  readonly code: ServiceErrorCode;
  readonly method: string;
  readonly path: string;
  readonly status: number | undefined;
  readonly serviceText: string | undefined;
  /** What the service's text means, when recognised (refusal-texts.ts); read this, never the text. */
  readonly refusal: RefusalCode | undefined;
  readonly retryAfterMs: number | undefined;
  readonly serverDateMs: number | undefined;

  constructor(code: ServiceErrorCode, summary: string, details: ServiceErrorDetails) {
    const where = `${details.method} ${details.path}`;
    const status = details.status === undefined ? '' : ` ${details.status}`;
    const text = details.serviceText === undefined ? '' : `: ${details.serviceText}`;
    super(`${where}${status} ${summary}${text}`, { hint: OPERATOR_HINTS[code], cause: details.cause });
    this.code = code;
    this.method = details.method;
    this.path = details.path;
    this.status = details.status;
    this.serviceText = details.serviceText;
    this.refusal = details.refusal;
    this.retryAfterMs = details.retryAfterMs;
    this.serverDateMs = details.serverDateMs;
  }

  override userText(): string {
    return `${this.message} [${this.code}]${this.hint ? ` (${this.hint})` : ''}`;
  }

  /** Whether repeating the same request later could succeed. */
  get transient(): boolean {
    return this.code === 'RATE_LIMITED' || this.code === 'SERVER_ERROR' || this.code === 'NETWORK_ERROR';
  }
}

/**
 * AMBIGUOUS_OUTCOME for an offer or fund call whose answer cannot be read (a 2xx that is not JSON
 * or not the spec's shape, no body, a body too large): the service may have applied it, so the
 * caller reconciles it and never takes it for a refusal.
 */
export function unreadableOutcome(details: ServiceErrorDetails, why: string): ServiceError {
  const answered = details.status === undefined ? 'the service answered' : `the service answered ${details.status}`;
  return new ServiceError(
    'AMBIGUOUS_OUTCOME',
    `${answered} but the answer could not be read (${why}); the request may have been applied`,
    details,
  );
}

/** A bad argument caught before anything was sent (a rate outside 0.03 to 2.0, a bad filter). */
export class InvalidArgumentError extends AppError {
  override readonly name = 'InvalidArgumentError';
  readonly code = 'INVALID_ARGUMENT';
  constructor(message: string) {
    super(message);
  }
}

/** Network failures (got's error codes) that prove a request never reached the service. */
export const NOT_SENT_NETWORK_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
]);

/** The four authentication texts of marketplace part 7, and the code each maps to. */
export const AUTH_TEXTS: ReadonlyArray<readonly [string, ServiceErrorCode]> = [
  ['Authentication credentials were not provided.', 'AUTH_MISSING_CREDENTIALS'],
  ['Invalid HMAC', 'AUTH_INVALID_HMAC'],
  ['Invalid API Key', 'AUTH_INVALID_API_KEY'],
  ['Timestamp out of range', 'AUTH_TIMESTAMP_OUT_OF_RANGE'],
];

/** The codes of marketplace part 7's authentication texts: the service refused the call before doing anything. */
export const AUTH_REFUSAL_CODES: ReadonlySet<ServiceErrorCode> = new Set(AUTH_TEXTS.map(([, code]) => code));

/** Hints an operator can act on, by code. */
export const OPERATOR_HINTS: Partial<Record<ServiceErrorCode, string>> = {
  AUTH_MISSING_CREDENTIALS: 'set LENDBOT_API_KEY and LENDBOT_SECRET_KEY',
  AUTH_INVALID_HMAC: 'check LENDBOT_SECRET_KEY and LENDBOT_SIGNATURE_MODE',
  AUTH_INVALID_API_KEY: 'check LENDBOT_API_KEY; the key may have been revoked',
  AUTH_TIMESTAMP_OUT_OF_RANGE: "check the machine's clock (signatures are valid for 5 minutes)",
  AMBIGUOUS_OUTCOME: 'the request may have been applied; check the account before repeating it',
  REDIRECT_REFUSED: 'check LENDBOT_BASE_URL: it should be the address the service answers on without redirecting',
};
