/**
 * The silent-webhooks alert (an alert, not a pause): polls keep finding new requests while no
 * webhook arrives. The marketplace deactivates a subscription after 24 h of failed deliveries
 * (marketplace 6.4) and it stays inactive until reactivation is asked for (marketplace 6.3), so the bot would
 * otherwise go on for months on polls alone, slower than its competitors.
 *
 * Only requests first seen by a poll at least an hour ago count (at most half the window): the
 * service retries a missed delivery every hour, so a daemon just (re)started, whose first poll
 * finds what it missed, is not taken for a silent one. And a daemon that has not yet listened
 * for a whole window (`listeningSinceMs`, the end of its start) claims no silence over time it
 * was not listening: on a fast simulated clock the sandbox's first webhooks, sent once start-up
 * has finished, came hours of its time after the first poll and raised a false alert.
 */
import type { ProtectionSettings } from '../../risk/index.js';
import type { Store } from '../../store/index.js';
import { readStateJson } from './pause-state.js';
import { HOUR_MS } from '../../clock/time-constants.js';

export interface WebhookSilence {
  sinceMs: number;
  /** Requests first seen by polls, in the window, when the alert began. */
  polledRequests: number;
}

const SILENCE_KEY = 'webhooks_silent';

export type SilenceChange = { kind: 'began'; alert: WebhookSilence; windowHours: number } | { kind: 'ended' } | undefined;

/** The silent-webhooks alert stored now, if any. */
export function storedWebhookSilence(state: Pick<Store['state'], 'get'>): WebhookSilence | undefined {
  return readStateJson<WebhookSilence>(state, SILENCE_KEY);
}

/**
 * Updates the stored alert at `nowMs` and says how it changed. It begins when, in the last
 * `window_hours`, no webhook arrived and polls found at least `min_polled_requests` requests
 * first; it ends when a webhook arrives again (or the alert is turned off).
 */
export function updateWebhookSilence(
  store: Pick<Store, 'state' | 'signals'>,
  settings: ProtectionSettings['webhook_silence'],
  nowMs: number,
  listeningSinceMs?: number,
): SilenceChange {
  const current = storedWebhookSilence(store.state);
  const lastWebhookMs = store.signals.lastWebhookReceivedMs();
  if (current !== undefined) {
    const heardSince = lastWebhookMs !== undefined && lastWebhookMs >= current.sinceMs;
    if (!settings.enabled || heardSince) {
      store.state.set(SILENCE_KEY, 'null', nowMs);
      return { kind: 'ended' };
    }
    return undefined;
  }
  if (!settings.enabled) return undefined;
  const windowMs = settings.window_hours * HOUR_MS;
  if (listeningSinceMs !== undefined && nowMs - listeningSinceMs < windowMs) return undefined;
  if (lastWebhookMs !== undefined && lastWebhookMs >= nowMs - windowMs) return undefined;
  const graceMs = Math.min(HOUR_MS, windowMs / 2);
  const polled = store.signals.requestsFirstSeenBetween(nowMs - windowMs, nowMs - graceMs).poll;
  if (polled < settings.min_polled_requests) return undefined;
  const alert: WebhookSilence = { sinceMs: nowMs, polledRequests: polled };
  store.state.set(SILENCE_KEY, JSON.stringify(alert), nowMs);
  return { kind: 'began', alert, windowHours: settings.window_hours };
}
