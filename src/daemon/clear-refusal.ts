/**
 * Which failures of an offer or fund call prove that the service did nothing, and so release
 * the money lendbot held for it. A 2xx means the offer exists, whatever its body; the spec does
 * not show the success body of make_offer, nor the status and text of most refusals (4.2: "not
 * shown"), so only two kinds of failure prove nothing was done:
 * - a refusal lendbot recognises: a 4xx whose text is in the refusal table (src/service/
 *   refusal-texts.ts, extended by `service.refusal_texts`) with a code that refuses this call,
 *   or one of the four authentication texts of marketplace part 7;
 * - a failure before anything was sent: a bad argument caught by the client, or a network
 *   failure with a not-sent cause (connection refused, no such host, no route, nothing uploaded).
 * Anything else (an answer that cannot be read, a redirect, a 4xx with a text not recognised, a
 * 5xx, a timeout, a bug) may have created the offer: it stays `unknown`, keeps its money
 * reserved, and is reconciled, never resent blindly (docs/daemon.md, "Acting").
 */
import {
  AUTH_REFUSAL_CODES,
  InvalidArgumentError,
  NOT_SENT_NETWORK_CODES,
  refusesCall,
  ServiceError,
  type RefusedCall,
} from '../service/index.js';

export type CallKind = RefusedCall;

/** Whether `error`, from a make_offer or fund call, proves the service did nothing. */
export function isClearRefusal(error: unknown, call: CallKind): boolean {
  if (error instanceof InvalidArgumentError) return true;
  if (!(error instanceof ServiceError)) return false;
  if (error.code === 'NETWORK_ERROR') return notSent(error.cause);
  if (AUTH_REFUSAL_CODES.has(error.code)) return true;
  return error.code === 'RULE_REFUSED' && error.refusal !== undefined && refusesCall(error.refusal, call);
}

/**
 * The cause of a network failure (got's RequestError) shows the request was never sent: a
 * not-sent code, or nothing uploaded; and no redirect was followed (the failure of a redirected
 * request says nothing of the first one, which the service did receive).
 */
function notSent(cause: unknown): boolean {
  if (cause === null || typeof cause !== 'object') return false;
  const { code, timings, request } = cause as { code?: unknown; timings?: { upload?: unknown }; request?: { redirectUrls?: unknown } };
  const redirects = request?.redirectUrls;
  if (!Array.isArray(redirects) || redirects.length > 0) return false;
  if (typeof code === 'string' && NOT_SENT_NETWORK_CODES.has(code)) return true;
  return timings !== undefined && timings.upload === undefined;
}

/** An error's code and text for a stored reason ("MALFORMED_RESPONSE: POST ... answer is not JSON"). */
export function failureText(error: unknown): string {
  if (error instanceof ServiceError) return `${error.code}: ${error.serviceText ?? error.message}`;
  if (error instanceof InvalidArgumentError) return `${error.code}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}
