/**
 * Verifying a webhook token: an HS256 JWT signed with the webhook secret. HS256 is the only
 * algorithm accepted; `none`, HS512 and every asymmetric algorithm are refused, so nobody can
 * choose how their token is checked. `exp` is not required, but checked when present.
 *
 * A validly signed token can still be refused as malformed (400): claims in neither layout (or
 * not the pinned one, token-layout.ts), data that breaks the spec, claims nested deeper than
 * MAX_JSON_DEPTH, or an `nbf` still to come (the sender's clock ahead of ours; the marketplace
 * retries hourly, so it arrives later). Such refusals say `signed: true`: only the marketplace
 * holds the secret, so they mean we misread its tokens, and the listener warns about a run of them.
 *
 * This module keeps a bounded memo of the secret last imported as a key (MEMO_LAST_KEY, one entry).
 */
import { createHash, webcrypto } from 'node:crypto';
import { errors, jwtVerify } from 'jose';
import { systemClock, type Clock } from '../clock/clock.js';
import { KNOWN_TOPICS, type WebhookEvent } from './event-schema.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth.js';
import { DEFAULT_TOKEN_LAYOUT, readTokenLayout, type BesideToken, type TokenLayout, type TokenLayoutSetting } from './token-layout.js';

export interface VerifiedEvent {
  ok: true;
  event: WebhookEvent;
  /** How the claims were read. */
  layout: TokenLayout;
  /**
   * SHA-256 (hex) of the signed payload bytes. In the data layout the uuid is not signed, so
   * the inbox also dedupes those events on this: a token replayed under a new uuid is a duplicate.
   */
  payloadSha256: string;
}

type VerifyFailureCode =
  /** Not a compact JWS at all. */
  | 'not_a_jwt'
  /** A header algorithm other than HS256 (including `none`). */
  | 'alg_not_allowed'
  /** The signature does not match the secret. */
  | 'bad_signature'
  /** Signed, but its `exp` has passed. */
  | 'expired'
  /** Signed, but envelope claims with wrong values, or its `nbf` has not come. */
  | 'claims_invalid'
  /** Signed, but `webhook.token_layout` pins the other layout. */
  | 'layout_mismatch'
  /** Signed data-layout claims, without a valid `webhook_uuid` and `topic` beside the token. */
  | 'event_fields_invalid'
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
  /**
   * The signature verified but the token's shape was not what we read (not a time problem such
   * as `exp` or `nbf`): the marketplace signs differently from what we expect, or someone replays
   * a genuine token with other clear-text fields. A run of these raises a warning.
   */
  misread: boolean;
}

export interface VerifyOptions {
  /** Time for `exp` and `nbf`; the system clock by default. */
  clock?: Clock;
  /** Which claim layouts to accept (token-layout.ts); `auto` by default. */
  layout?: TokenLayoutSetting;
  /** The clear-text `webhook_uuid` and `topic` beside the token; only the data layout reads them. */
  beside?: BesideToken;
}

/** Allowed clock skew for `exp` and `nbf`, in seconds. */
const CLOCK_TOLERANCE_SECONDS = 30;

/** The HMAC key: the UTF-8 bytes of the webhook secret as the service gave it. */
export function webhookKey(secret: string): Uint8Array {
  return new TextEncoder().encode(secret);
}

/**
 * The secret imported once as an HS256 verification key: given the raw bytes, jose imports them
 * again for every token (a WebCrypto round of its own on the way to each offer). One secret is
 * in use at a time, so only the last one is kept.
 */
const MEMO_LAST_KEY: { last: { secret: string; key: Promise<webcrypto.CryptoKey> } | undefined } = { last: undefined };

function verificationKey(secret: string): Promise<webcrypto.CryptoKey> {
  if (MEMO_LAST_KEY.last?.secret !== secret) {
    const key = webcrypto.subtle.importKey('raw', webhookKey(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
    // A failed import is not kept: the next token tries again.
    key.catch(() => {
      if (MEMO_LAST_KEY.last?.key === key) MEMO_LAST_KEY.last = undefined;
    });
    MEMO_LAST_KEY.last = { secret, key };
  }
  return MEMO_LAST_KEY.last.key;
}

function joseFailure(error: unknown): VerifyFailure {
  // jose checks the signature before the claims: these come from a genuine signature.
  const timing =
    error instanceof errors.JWTExpired ||
    (error instanceof errors.JWTClaimValidationFailed && error.claim === 'nbf' && error.reason === 'check_failed');
  const misread = !timing && (error instanceof errors.JWTInvalid || error instanceof errors.JWTClaimValidationFailed);
  return { ...joseFailureOf(error), misread };
}

function joseFailureOf(error: unknown): Omit<VerifyFailure, 'misread'> {
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
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(token, await verificationKey(secret), {
      algorithms: ['HS256'],
      currentDate: new Date(clock.now()),
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
    }));
  } catch (error) {
    return joseFailure(error);
  }

  const misread = (code: VerifyFailureCode, message: string): VerifyFailure => ({
    ok: false,
    outcome: 'malformed',
    code,
    message,
    misread: true,
  });
  if (nestsDeeperThan(payload, MAX_JSON_DEPTH)) return misread('too_deep', `token claims nest deeper than ${MAX_JSON_DEPTH} levels`);

  const reading = readTokenLayout(payload, options.layout ?? DEFAULT_TOKEN_LAYOUT, options.beside ?? {});
  if (!reading.ok) return misread(reading.code, reading.message);
  const { layout, webhookUuid, topic, data, iat } = reading;
  const dataSchema = KNOWN_TOPICS[topic];
  if (dataSchema !== undefined) {
    const checked = dataSchema.safeParse(data);
    if (!checked.success) {
      const fields = [...new Set(checked.error.issues.map((issue) => issue.path.join('.')))].join(', ');
      return misread('data_invalid', `${topic} data invalid at ${fields}`);
    }
  }
  return {
    ok: true,
    event: { webhookUuid, topic, data, issuedAtMs: iat === undefined ? undefined : iat * 1000, known: dataSchema !== undefined },
    layout,
    payloadSha256: payloadSha256(token),
  };
}

/** SHA-256 (hex) of a compact JWS's decoded payload: what the signature covers, whatever the header. */
export function payloadSha256(token: string): string {
  return createHash('sha256')
    .update(Buffer.from(token.split('.')[1] ?? '', 'base64url'))
    .digest('hex');
}
