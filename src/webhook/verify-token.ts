/**
 * Verifying a webhook token: an HS256 JWT signed with the webhook secret. HS256 is the only
 * algorithm accepted; `none`, HS512 and every asymmetric algorithm are refused, so nobody can
 * choose how their token is checked. `exp` is not required, but checked when present.
 *
 * A validly signed token can still be refused as malformed (400): claims not shaped as an event,
 * data that breaks the spec, claims nested deeper than MAX_JSON_DEPTH, or an `nbf` still to come
 * (the sender's clock ahead of ours; the marketplace retries hourly, so it arrives later).
 */
import { errors, jwtVerify } from 'jose';
import { systemClock, type Clock } from '../clock/clock.js';
import { KNOWN_TOPICS, webhookClaimsSchema, type WebhookEvent } from './event-schema.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth.js';

export interface VerifiedEvent {
  ok: true;
  event: WebhookEvent;
}

export type VerifyFailureCode =
  /** Not a compact JWS at all. */
  | 'not_a_jwt'
  /** A header algorithm other than HS256 (including `none`). */
  | 'alg_not_allowed'
  /** The signature does not match the secret. */
  | 'bad_signature'
  /** Signed, but its `exp` has passed. */
  | 'expired'
  /** Signed, but the claims are not `{ webhook_uuid, topic, data }`, or its `nbf` has not come. */
  | 'claims_invalid'
  /** Signed, but the claims nest deeper than MAX_JSON_DEPTH. */
  | 'too_deep'
  /** Signed, a known topic, but its data does not match the spec. */
  | 'data_invalid';

export interface VerifyFailure {
  ok: false;
  /** forged → 401; malformed → 400. */
  outcome: 'forged' | 'malformed';
  code: VerifyFailureCode;
  /** Why, for the log line; never contains the token or the secret. */
  message: string;
}

export interface VerifyOptions {
  /** Time for `exp` and `nbf`; the system clock by default. */
  clock?: Clock;
  /** Allowed clock skew for `exp` and `nbf`, in seconds. */
  clockToleranceSeconds?: number;
}

const DEFAULT_CLOCK_TOLERANCE_SECONDS = 30;

/** The HMAC key: the UTF-8 bytes of the webhook secret as the service gave it. */
export function webhookKey(secret: string): Uint8Array {
  return new TextEncoder().encode(secret);
}

function joseFailure(error: unknown): VerifyFailure {
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported) {
    return { ok: false, outcome: 'forged', code: 'alg_not_allowed', message: 'token algorithm is not HS256' };
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) {
    return { ok: false, outcome: 'forged', code: 'bad_signature', message: 'token signature does not match the webhook secret' };
  }
  if (error instanceof errors.JWTExpired) {
    return { ok: false, outcome: 'forged', code: 'expired', message: 'token has expired' };
  }
  // Only reached after the signature was checked: a genuine token with bad registered claims.
  if (error instanceof errors.JWTClaimValidationFailed && error.claim === 'nbf' && error.reason === 'check_failed') {
    return { ok: false, outcome: 'malformed', code: 'claims_invalid', message: 'token is not valid yet (its nbf has not come)' };
  }
  if (error instanceof errors.JWTClaimValidationFailed) {
    return { ok: false, outcome: 'malformed', code: 'claims_invalid', message: `token claim ${error.claim} is invalid (${error.reason})` };
  }
  if (error instanceof errors.JWTInvalid) {
    return { ok: false, outcome: 'malformed', code: 'claims_invalid', message: 'token payload is not a JSON object' };
  }
  if (error instanceof errors.JOSEError) {
    return { ok: false, outcome: 'forged', code: 'not_a_jwt', message: 'token is not a valid JWS' };
  }
  throw error;
}

/** Checks a webhook token and returns its event, or why it was refused (never throws for bad input). */
export async function verifyWebhookToken(
  token: string,
  secret: string,
  options: VerifyOptions = {},
): Promise<VerifiedEvent | VerifyFailure> {
  const clock = options.clock ?? systemClock;
  let payload: unknown;
  try {
    ({ payload } = await jwtVerify(token, webhookKey(secret), {
      algorithms: ['HS256'],
      currentDate: new Date(clock.now()),
      clockTolerance: options.clockToleranceSeconds ?? DEFAULT_CLOCK_TOLERANCE_SECONDS,
    }));
  } catch (error) {
    return joseFailure(error);
  }

  if (nestsDeeperThan(payload, MAX_JSON_DEPTH)) {
    return { ok: false, outcome: 'malformed', code: 'too_deep', message: `token claims nest deeper than ${MAX_JSON_DEPTH} levels` };
  }

  const claims = webhookClaimsSchema.safeParse(payload);
  if (!claims.success) {
    const fields = [...new Set(claims.error.issues.map((issue) => issue.path.join('.') || '(root)'))].join(', ');
    return { ok: false, outcome: 'malformed', code: 'claims_invalid', message: `token claims invalid at ${fields}` };
  }
  const { webhook_uuid: webhookUuid, topic, data, iat } = claims.data;
  const dataSchema = KNOWN_TOPICS[topic];
  if (dataSchema !== undefined) {
    const checked = dataSchema.safeParse(data);
    if (!checked.success) {
      const fields = [...new Set(checked.error.issues.map((issue) => issue.path.join('.')))].join(', ');
      return { ok: false, outcome: 'malformed', code: 'data_invalid', message: `${topic} data invalid at ${fields}` };
    }
  }
  return {
    ok: true,
    event: { webhookUuid, topic, data, issuedAtMs: iat === undefined ? undefined : iat * 1000, known: dataSchema !== undefined },
  };
}
