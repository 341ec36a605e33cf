/**
 * A JSON POST whose answer is read within a limit, for lendbot's calls beside the marketplace
 * client: notifications and the Telegram bot. The same two bounds as the client's
 * (response-limits.ts): the bytes on the wire, counted as they arrive (the request is cancelled
 * once they pass the limit, or at once when Content-Length says they will), and the bytes once
 * inflated. Issue 37, item 4: a 40 MB getUpdates answer was once read whole (167 -> 294 MB RSS).
 *
 * Any status is an answer (`status` and its text); a network failure throws got's RequestError,
 * whose message and URL the caller must keep out of logs when the URL holds a secret.
 */
import got, { HTTPError, type Response } from 'got';
import { ACCEPT_ENCODING, cancelPastLimit, decodeBody } from './response-limits.js';

export interface BoundedPostOptions {
  json: unknown;
  headers?: Record<string, string>;
  timeoutMs: number;
  /** Bytes read at most, on the wire and inflated. */
  limit: number;
  /** got's retry for a POST: attempts after the first, on these statuses, after these delays. */
  retry?: { limit: number; statusCodes: number[]; delayMs: (attempt: number) => number };
  signal?: AbortSignal;
}

export type BoundedAnswer =
  | { ok: true; status: number; text: string }
  | { ok: false; status: number | undefined; problem: 'too-large' | 'unreadable'; detail: string };

export async function postBounded(url: string, options: BoundedPostOptions): Promise<BoundedAnswer> {
  const { limit, retry } = options;
  const pending = got.post(url, {
    json: options.json,
    headers: { ...options.headers, 'accept-encoding': ACCEPT_ENCODING },
    responseType: 'buffer',
    // Inflated here, within the limit: got's own inflating knows no bound.
    decompress: false,
    // A redirect is an answer, never followed: the message (and what the URL stands for) must
    // not be carried to another host (issue 36, item 4); the caller logs its status.
    followRedirect: false,
    timeout: { request: options.timeoutMs },
    retry: retry
      ? {
          limit: retry.limit,
          methods: ['POST'],
          statusCodes: retry.statusCodes,
          calculateDelay: ({ attemptCount, computedValue }) => (computedValue === 0 ? 0 : retry.delayMs(attemptCount)),
        }
      : { limit: 0 },
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const watch = cancelPastLimit(pending, limit);
  let response: Response<Buffer>;
  try {
    response = await pending;
  } catch (error) {
    if (watch.tooLarge())
      return { ok: false, status: watch.status(), problem: 'too-large', detail: `the answer is larger than ${limit} bytes; not read` };
    // An HTTP error status is an answer like any other (got threw it after its retries).
    if (error instanceof HTTPError) response = error.response as Response<Buffer>;
    else throw error;
  }
  const decoded = await decodeBody(response.rawBody ?? Buffer.alloc(0), response.headers['content-encoding'], limit);
  if (decoded.ok) return { ok: true, status: response.statusCode, text: decoded.text };
  if (decoded.problem === 'too-large')
    return { ok: false, status: response.statusCode, problem: 'too-large', detail: `the answer inflates beyond ${limit} bytes; not read` };
  const why =
    decoded.problem === 'unsupported-encoding' ? `Content-Encoding "${decoded.encoding}" was not asked for` : 'it does not inflate';
  return { ok: false, status: response.statusCode, problem: 'unreadable', detail: `the answer is unreadable: ${why}` };
}
