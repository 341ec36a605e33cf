/**
 * Request signing of marketplace part 5: X-API-KEY, X-Timestamp (Unix seconds) and X-HMAC, the
 * lowercase hex HMAC-SHA256 keyed with the secret key. The documented rule signs
 * `<timestamp>:<secret>`; one sample in the spec signs the timestamp followed by the URL, which we
 * support as a non-default mode for services that turn out to work that way.
 */
import { createHmac } from 'node:crypto';

export type SignatureMode = 'timestamp-secret' | 'timestamp-url';
export const SIGNATURE_MODES: readonly SignatureMode[] = ['timestamp-secret', 'timestamp-url'];

export interface SignedHeaders {
  'X-API-KEY': string;
  'X-Timestamp': string;
  'X-HMAC': string;
}

/** The text that is signed for a request. */
export function signingText(mode: SignatureMode, timestamp: number, secretKey: string, url: string): string {
  return mode === 'timestamp-secret' ? `${timestamp}:${secretKey}` : `${timestamp}${url}`;
}

/** Lowercase hex HMAC-SHA256 of `text` keyed with `secretKey`. */
export function hmacHex(secretKey: string, text: string): string {
  return createHmac('sha256', secretKey).update(text, 'utf8').digest('hex');
}

/** The three authentication headers for one attempt of a request. */
export function signRequest(options: {
  apiKey: string;
  secretKey: string;
  timestamp: number;
  mode: SignatureMode;
  /** The full request URL; only the `timestamp-url` mode signs it. */
  url: string;
}): SignedHeaders {
  const text = signingText(options.mode, options.timestamp, options.secretKey, options.url);
  return {
    'X-API-KEY': options.apiKey,
    'X-Timestamp': String(options.timestamp),
    'X-HMAC': hmacHex(options.secretKey, text),
  };
}
