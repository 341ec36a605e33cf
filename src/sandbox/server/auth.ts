/**
 * Authentication of marketplace part 5 as the service applies it: the three headers, the HMAC over
 * `<timestamp>:<secret>` (or, as one sample shows, the timestamp followed by the URL) as lowercase
 * hex, and the 5-minute window. Returns the part-7 text to answer with, or undefined when the request passes.
 */
import { timingSafeEqual } from 'node:crypto';
import type { Clock } from '../../clock/clock.js';
import { AUTH_TEXTS, hmacHex } from '../../service/index.js';

export const SIGNATURE_WINDOW_MS = 5 * 60_000;

function authText(code: string): string {
  const entry = AUTH_TEXTS.find(([, c]) => c === code);
  if (!entry) throw new Error(`unknown auth code ${code}`);
  return entry[0];
}

export const AUTH_MISSING = authText('AUTH_MISSING_CREDENTIALS');
export const AUTH_BAD_HMAC = authText('AUTH_INVALID_HMAC');
export const AUTH_BAD_KEY = authText('AUTH_INVALID_API_KEY');
export const AUTH_BAD_TIME = authText('AUTH_TIMESTAMP_OUT_OF_RANGE');

export interface AuthSettings {
  apiKey: string;
  secretKey: string;
  /** The simulated clock; a timestamp within 5 minutes of it passes. */
  clock: Clock;
  /** Also accept timestamps within 5 minutes of this clock (the wall clock), if given. */
  wallClock?: Clock | undefined;
}

type HeaderValue = string | string[] | undefined;

function header(value: HeaderValue): string | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  return text === undefined || text.trim() === '' ? undefined : text.trim();
}

// Marketplace part 5: the signature is lowercase hex. Uppercase (or any other spelling) is a wrong
// signature, as a service comparing the texts would find it.
function sameHex(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Checks a request's headers; `fullUrl` is the URL as the client addressed it. */
export function authenticate(headers: Record<string, HeaderValue>, fullUrl: string, settings: AuthSettings): string | undefined {
  const apiKey = header(headers['x-api-key']);
  const timestamp = header(headers['x-timestamp']);
  const signature = header(headers['x-hmac']);
  if (!apiKey || !timestamp || !signature) return AUTH_MISSING;
  if (apiKey !== settings.apiKey) return AUTH_BAD_KEY;
  if (!/^\d{1,12}$/.test(timestamp)) return AUTH_BAD_TIME;
  const at = Number(timestamp) * 1000;
  const near = (clock: Clock | undefined): boolean => clock !== undefined && Math.abs(clock.now() - at) <= SIGNATURE_WINDOW_MS;
  if (!near(settings.clock) && !near(settings.wallClock)) return AUTH_BAD_TIME;
  const documented = hmacHex(settings.secretKey, `${timestamp}:${settings.secretKey}`);
  const withUrl = hmacHex(settings.secretKey, `${timestamp}${fullUrl}`);
  if (!sameHex(signature, documented) && !sameHex(signature, withUrl)) return AUTH_BAD_HMAC;
  return undefined;
}
