/**
 * The check of `lendbot doctor` on what reaches the daemon from outside: the webhook listener (a
 * signed test event, verified with the configured secret). What the daemon sends out is checked
 * by its wing (messaging's notifications line, checkNotifications in src/messaging/notifier.ts).
 */
import type { Clock } from '../../../clock/clock.js';
import type { DaemonConfigFile } from '../../../daemon/daemon-config.js';
import { reachableHost } from '../../../operator/operator-listener.js';
import { answerSnippet, shownUrl } from '../../../service/index.js';
import { answerMeaning, deliveryFailureText, sendSignedEvent, testEvent } from '../webhook/signed-event.js';
import { failed, passed, warned, type CheckOutcome } from './check-runner.js';

/** A topic lendbot does not act on: the listener verifies it, stores it as ignored, and answers 200. */
const DOCTOR_TOPIC = 'lendbot_doctor_check';

export interface WebhookCheckInput {
  config: DaemonConfigFile;
  secret: string | undefined;
  /** The public address given with --webhook-url; without it, the local listener of a running daemon. */
  url: string | undefined;
  clock: Clock;
  timeoutMs: number;
}

export async function checkWebhook(input: WebhookCheckInput): Promise<CheckOutcome> {
  if (input.secret === undefined || input.secret.trim() === '') {
    return failed(
      'LENDBOT_WEBHOOK_SECRET is not set',
      'set it to the secret the marketplace gave with the webhook subscription (docs/going-live.md)',
    );
  }
  const url = input.url ?? localListenerUrl(input.config);
  if (input.url === undefined) {
    const there = await whoListens(url, input.timeoutMs);
    if (there.who === 'nobody')
      return warned(
        `no daemon listens at ${url}: the listener was not checked`,
        'start lendbot run and run doctor again, or pass --webhook-url with the public address',
      );
    if (there.who === 'another program') {
      const { host } = new URL(url);
      return failed(
        `${host} is taken by another program (its /healthz answered ${there.said}): lendbot run could not listen there`,
        'stop it, or set webhook.port (LENDBOT_WEBHOOK_PORT) to a free port',
      );
    }
  }
  const event = testEvent(DOCTOR_TOPIC, { note: 'a test event from lendbot doctor' });
  try {
    const answer = await sendSignedEvent(url, input.secret, event, {
      nowMs: input.clock.now(),
      timeoutMs: input.timeoutMs,
      layout: input.config.webhook.token_layout,
    });
    const meaning = answerMeaning(answer);
    const shown = shownUrl(url);
    return meaning.ok ? passed(`${shown} ${meaning.text}`) : failed(`${shown} ${meaning.text}`, meaning.fix);
  } catch (error) {
    return failed(deliveryFailureText(url, error), 'check the address, the proxy in front of the listener and that lendbot run is up');
  }
}

/** The webhook listener of a daemon running on this machine with this config. */
function localListenerUrl(config: Pick<DaemonConfigFile, 'webhook'>): string {
  return `http://${reachableHost(config.webhook.host)}:${config.webhook.port}${config.webhook.path}`;
}

type Listener = { who: 'nobody' | 'lendbot' } | { who: 'another program'; said: string };

/**
 * Who answers at the listener's address: the daemon's /healthz (on the same port) answers its
 * health report, JSON with a status and checks; anything else there is another program, which
 * `lendbot run` could not share the port with.
 */
async function whoListens(url: string, timeoutMs: number): Promise<Listener> {
  let response: Response;
  try {
    response = await fetch(new URL('/healthz', url), { redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
  } catch {
    return { who: 'nobody' };
  }
  const text = await response.text().catch(() => '');
  try {
    const report = JSON.parse(text) as { status?: unknown; checks?: unknown };
    if (typeof report.status === 'string' && typeof report.checks === 'object' && report.checks !== null) return { who: 'lendbot' };
  } catch {
    // not JSON: not lendbot's health report
  }
  const body = answerSnippet(text, response.headers.get('content-type'));
  return { who: 'another program', said: `${response.status}${body === undefined ? '' : ` with ${body}`}` };
}
