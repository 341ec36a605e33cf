/**
 * A webhook event shaped as the marketplace sends it (marketplace part 6), built by the same code as the
 * sandbox's sender (src/webhook/signed-delivery.ts), in the layout the daemon's config pins.
 * `lendbot doctor` and `lendbot webhook test` send one to check the listener and its secret.
 */
import { randomUUID } from 'node:crypto';
import { signedDelivery, type TokenLayoutSetting } from '../../../webhook/index.js';
import { answerSnippet, isWebPage, shownUrl, splitCredentials } from '../../../service/index.js';
import { UserError } from '../../user-error.js';

export interface TestEvent {
  webhookUuid: string;
  topic: string;
  data: Record<string, unknown>;
}

export interface DeliveryAnswer {
  status: number;
  /** The answer's body, cut to a line (the listener's answers are short JSON); a web page named by its title. */
  text: string;
  /** A redirect's target (password hidden): never followed, since it may lead to another host. */
  location?: string | undefined;
  /** The answer is a web page: another server answered, not lendbot's listener (its answers are JSON). */
  webPage?: boolean | undefined;
}

/** A new event with a fresh uuid. */
export function testEvent(topic: string, data: Record<string, unknown>): TestEvent {
  return { webhookUuid: randomUUID(), topic, data };
}

/** POSTs `event` to `url`, signed with `secret`; throws on no answer within `timeoutMs`. */
export async function sendSignedEvent(
  url: string,
  secret: string,
  event: TestEvent,
  options: { nowMs: number; timeoutMs: number; layout?: TokenLayoutSetting | undefined },
): Promise<DeliveryAnswer> {
  // A listener pinned to one layout reads only that one; `auto` reads both, and envelope is the spec's reading.
  const layout = options.layout === 'data' ? 'data' : 'envelope';
  const { headers, body } = await signedDelivery(event, new TextEncoder().encode(secret), { nowMs: options.nowMs, layout });
  const target = splitCredentials(url);
  const response = await fetch(target.url, {
    method: 'POST',
    headers: {
      ...headers,
      'User-Agent': 'lendbot-webhook-test',
      ...(target.authorization === undefined ? {} : { Authorization: target.authorization }),
    },
    body,
    // A signed event is never carried to wherever a redirect points: the answer is reported instead.
    redirect: 'manual',
    signal: AbortSignal.timeout(options.timeoutMs),
  });
  const raw = await response.text().catch(() => '');
  const contentType = response.headers.get('content-type');
  const location = response.headers.get('location');
  return {
    status: response.status,
    text: answerSnippet(raw, contentType) ?? '',
    webPage: isWebPage(raw, contentType),
    ...(location === null ? {} : { location: shownUrl(new URL(location, target.url).toString()) }),
  };
}

/** Why a delivery failed, in one line: the network error's code and the URL's origin. */
export function deliveryFailureText(url: string, error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code = (cause as NodeJS.ErrnoException | undefined)?.code;
  if (error instanceof Error && error.name === 'TimeoutError') return `no answer from ${shownUrl(url)} in time`;
  return `cannot reach ${shownUrl(url)}: ${code ?? (cause instanceof Error ? cause.message : String(cause))}`;
}

/** What an answer of the listener means, and what to fix when it is not a 200. */
export function answerMeaning(answer: DeliveryAnswer): { ok: boolean; text: string; fix?: string } {
  const said = `${answer.status}${answer.text === '' ? '' : ` ${answer.text}`}`;
  if (answer.status >= 300 && answer.status < 400) {
    const to = answer.location ?? 'no address';
    return {
      ok: false,
      text: `answered ${answer.status}, a redirect to ${to}: not followed (the marketplace posts to the address as registered)`,
      fix: `register the address the listener answers on itself${answer.location === undefined ? '' : ` (${to}, if that is yours)`}, and test that one`,
    };
  }
  if (answer.webPage === true) {
    return {
      ok: false,
      text: `answered ${answer.status} with ${answer.text}: a web page, not lendbot's listener`,
      fix: "the URL reaches another server: point it (or the proxy in front) at lendbot run's webhook listener (webhook.host, webhook.port, webhook.path)",
    };
  }
  if (answer.status === 200) return { ok: true, text: `answered ${said}: the signature verified with LENDBOT_WEBHOOK_SECRET` };
  if (answer.status === 401) {
    return {
      ok: false,
      text: `answered ${said}: the listener refused the signature`,
      fix: "LENDBOT_WEBHOOK_SECRET here differs from the daemon's: set both to the secret the marketplace gave",
    };
  }
  if (answer.status === 404)
    return {
      ok: false,
      text: `answered ${said}`,
      fix: 'the URL does not reach the listener: check the path (webhook.path, default /webhooks) and the proxy in front',
    };
  if (answer.status === 503)
    return {
      ok: false,
      text: `answered ${said}: the daemon cannot store events now`,
      fix: 'see lendbot status and the daemon log (/healthz says why)',
    };
  return {
    ok: false,
    text: `answered ${said}`,
    fix: "the answer did not come from lendbot's listener, or it refused the event: check the proxy in front and the daemon log",
  };
}

/** Parses an option that must be an http(s) URL, or fails with a usage error naming it. */
export function httpUrl(name: string): (text: string) => string {
  return (text: string) => {
    try {
      const url = new URL(text);
      if (url.protocol === 'http:' || url.protocol === 'https:') return text;
    } catch {
      // reported below
    }
    throw new UserError(`${name} must be an http(s) URL (got "${shownUrl(text)}")`, 'USAGE');
  };
}
