/**
 * Webhook delivery (marketplace part 6, our reading in docs/sandbox.md): each event is POSTed to every
 * active subscription with `X-Svc-Topic` and a body `{"token": JWT}`, the JWT HS256-signed with
 * the webhook secret and carrying `{webhook_uuid, topic, data}` plus `iat`. An answer other than
 * 200 (or none within the timeout) is retried every simulated hour, up to 24 times; when the last
 * retry fails too, the subscription is deactivated until reactivated. Retries run on `tick`, which
 * the sandbox calls whenever simulated time moves.
 *
 * The answer wait is real time (spec: 60 s), the retry schedule simulated time. At a high speed an
 * hour passes in milliseconds, so a retry is never started while an attempt of the same delivery
 * still waits for its answer: the next one is due an hour after the previous one started or when
 * it ended, whichever is later. The receiver gets the service's 25 chances at any speed.
 */
import { signedDelivery } from '../webhook/index.js';
import type { Clock } from '../clock/clock.js';
import type { Logger } from '../log/logger.js';
import { HOUR_MS } from '../clock/time-constants.js';
import type { Random } from './random.js';

export { NEW_LOAN_REQUEST_TOPIC } from '../domain/index.js';
export const RETRY_EVERY_MS = HOUR_MS;
export const GIVE_UP_AFTER_MS = 24 * HOUR_MS;
/** The first attempt and one retry an hour for 24 hours. */
export const MAX_ATTEMPTS = 1 + GIVE_UP_AFTER_MS / RETRY_EVERY_MS;

export interface WebhookSubscription {
  id: number;
  url: string;
  email: string;
  active: boolean;
  createdMs: number;
  deactivatedMs: number | null;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'dropped';

export interface WebhookDelivery {
  webhookUuid: string;
  subscriptionId: number;
  topic: string;
  data: Record<string, unknown>;
  status: DeliveryStatus;
  attempts: number;
  firstAttemptMs: number;
  nextAttemptMs: number;
  lastError: string | null;
}

export interface WebhookSenderOptions {
  clock: Clock;
  /** The account's webhook secret; every subscription is signed with it. */
  secret: string;
  /** Draws event UUIDs (deterministic for a seed). */
  random: Random;
  /** Real milliseconds to wait for an answer (spec: 60 s). */
  timeoutMs: number;
  /** Fault injection: whether this delivery is silently lost. */
  drop: () => boolean;
  /**
   * envelope (default): the token's claims are `{webhook_uuid, topic, data}`; data: the claims are
   * the data, and `webhook_uuid` and `topic` go beside the token in the body (docs/webhooks.md).
   */
  tokenLayout?: 'envelope' | 'data';
  log: Logger;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export class WebhookSender {
  private readonly subscriptions: WebhookSubscription[] = [];
  private readonly deliveryLog: WebhookDelivery[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  /** Deliveries with an attempt waiting for its answer: no retry of theirs may start meanwhile. */
  private readonly awaitingAnswer = new Set<WebhookDelivery>();
  private readonly key: Uint8Array;
  private closed = false;

  constructor(private readonly options: WebhookSenderOptions) {
    this.key = new TextEncoder().encode(options.secret);
  }

  /**
   * Subscribes a URL; throws a RangeError with a user-facing text on a bad URL or e-mail.
   * `active: false` subscribes it paused, sent nothing until reactivated (the embedded sandbox
   * subscribes the daemon before its listener is up).
   */
  subscribe(url: string, email: string, options: { active?: boolean } = {}): WebhookSubscription {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new RangeError(`Enter a valid URL (got "${url}").`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new RangeError(`Enter a valid URL (got "${url}").`);
    if (!EMAIL.test(email)) throw new RangeError(`Enter a valid e-mail address (got "${email}").`);
    const subscription: WebhookSubscription = {
      id: this.subscriptions.length + 1,
      url,
      email,
      active: options.active ?? true,
      createdMs: this.options.clock.now(),
      deactivatedMs: options.active === false ? this.options.clock.now() : null,
    };
    this.subscriptions.push(subscription);
    return subscription;
  }

  /** Reactivates a deactivated subscription; false when there is no such id. */
  reactivate(id: number): boolean {
    const subscription = this.subscriptions.find((s) => s.id === id);
    if (!subscription) return false;
    subscription.active = true;
    subscription.deactivatedMs = null;
    return true;
  }

  list(): readonly WebhookSubscription[] {
    return this.subscriptions;
  }

  deliveries(): readonly WebhookDelivery[] {
    return this.deliveryLog;
  }

  /** Sends an event to every active subscription, now. */
  emit(topic: string, data: Record<string, unknown>): void {
    const now = this.options.clock.now();
    for (const subscription of this.subscriptions) {
      if (!subscription.active) continue;
      const delivery: WebhookDelivery = {
        webhookUuid: this.options.random.uuid(),
        subscriptionId: subscription.id,
        topic,
        data,
        status: 'pending',
        attempts: 0,
        firstAttemptMs: now,
        nextAttemptMs: now,
        lastError: null,
      };
      this.deliveryLog.push(delivery);
      if (this.options.drop()) {
        delivery.status = 'dropped';
        continue;
      }
      this.attempt(delivery, subscription);
    }
  }

  /** Forgets settled deliveries (delivered, failed, dropped) first tried before `beforeMs`. */
  prune(beforeMs: number): void {
    const keep = this.deliveryLog.filter((delivery) => delivery.status === 'pending' || delivery.firstAttemptMs >= beforeMs);
    this.deliveryLog.splice(0, this.deliveryLog.length, ...keep);
  }

  /** Retries the deliveries that are due at the current simulated time. */
  tick(): void {
    const now = this.options.clock.now();
    for (const delivery of this.deliveryLog) {
      if (delivery.status !== 'pending' || delivery.nextAttemptMs > now || delivery.attempts === 0) continue;
      if (this.awaitingAnswer.has(delivery)) continue;
      const subscription = this.subscriptions.find((s) => s.id === delivery.subscriptionId);
      if (subscription?.active) this.attempt(delivery, subscription);
    }
  }

  /** Resolves once every delivery attempt under way has finished. */
  async flush(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  /** Stops sending; attempts under way finish or time out on their own. */
  close(): void {
    this.closed = true;
  }

  private attempt(delivery: WebhookDelivery, subscription: WebhookSubscription): void {
    if (this.closed) return;
    const attemptMs = this.options.clock.now();
    delivery.attempts += 1;
    delivery.nextAttemptMs = attemptMs + RETRY_EVERY_MS;
    this.awaitingAnswer.add(delivery);
    const work = this.send(delivery, subscription).then(
      () => {
        delivery.status = 'delivered';
        delivery.lastError = null;
      },
      (error: unknown) => this.failed(delivery, subscription, attemptMs, error),
    );
    const tracked = work.finally(() => {
      this.awaitingAnswer.delete(delivery);
      this.inFlight.delete(tracked);
    });
    this.inFlight.add(tracked);
  }

  private async send(delivery: WebhookDelivery, subscription: WebhookSubscription): Promise<void> {
    const { headers, body } = await signedDelivery(delivery, this.key, {
      nowMs: this.options.clock.now(),
      layout: this.options.tokenLayout ?? 'envelope',
    });
    const response = await fetch(subscription.url, {
      method: 'POST',
      headers,
      body,
      signal: AbortSignal.timeout(this.options.timeoutMs),
    });
    // Drain the body so the connection is released.
    await response.arrayBuffer().catch(() => undefined);
    if (response.status !== 200) throw new Error(`answered ${response.status}`);
  }

  private failed(delivery: WebhookDelivery, subscription: WebhookSubscription, attemptMs: number, error: unknown): void {
    delivery.lastError = error instanceof Error ? error.message : String(error);
    this.options.log.warn(
      { subscription: subscription.id, webhookUuid: delivery.webhookUuid, attempts: delivery.attempts, error: delivery.lastError },
      'webhook delivery failed',
    );
    const endedMs = this.options.clock.now();
    if (delivery.attempts < MAX_ATTEMPTS) {
      // Simulated time may have run past the next slot while the answer was awaited (60 real
      // seconds are two months at a day a second): then the retry is due at once, not before.
      delivery.nextAttemptMs = Math.max(attemptMs + RETRY_EVERY_MS, endedMs);
      return;
    }
    delivery.status = 'failed';
    if (subscription.active) {
      subscription.active = false;
      subscription.deactivatedMs = endedMs;
      this.options.log.warn({ subscription: subscription.id }, 'webhook subscription deactivated: 24 hourly retries without a 200');
    }
    for (const other of this.deliveryLog) {
      if (other.subscriptionId === subscription.id && other.status === 'pending') other.status = 'failed';
    }
  }
}
