/**
 * Protections: automatic pauses of new offers when something is wrong at the level of the
 * account or of the book, not of one request (freqtrade's "protections" are the model):
 *
 * - account_refusals: the service refused offers for account reasons (the investor is borrowing,
 *   no verified bank account: spec 4.2 rules 2 and 9) `count` times within a window. Every
 *   further offer would be refused too.
 * - default_spike: of the lender's loans created within `window_days` (at least `min_loans`),
 *   more than `max_default_share` are in collection or default.
 * - drawdown: the unrecovered principal of those troubled loans exceeds `max_loss_share` of the
 *   principal lent in the window.
 *
 * A pause is kept in the store's state table (so `lendbot resume`, another process, can lift it,
 * and a restart keeps it), turns every offer into a skip with the reason `guard paused: ...`,
 * shows in `lendbot status` and /metrics, and is notified when it starts and ends. It lifts itself
 * after `pause_hours`, at `lendbot resume`, or when its protection is set `enabled: false`.
 *
 * webhook_silence is an alert, not a pause: polls keep finding new requests while no webhook
 * arrives (the marketplace deactivates a subscription after 24 h of failed deliveries).
 */
import type { Clock } from '../../clock/clock.js';
import type { Logger } from '../../log/logger.js';
import type { ProtectionSettings } from '../../risk/index.js';
import { formatCents } from '../../service/index.js';
import { isoFromMs, type Store } from '../../store/index.js';
import type { NotificationEvent } from '../notifier.js';
import { vintageHealth } from './loan-vintage.js';

export type PauseKind = 'account_refusal' | 'default_spike' | 'drawdown';

export interface Pause {
  kind: PauseKind;
  /** One line with the figures, and how it ends. */
  reason: string;
  sinceMs: number;
  /** When it lifts itself; null: only at resume. */
  untilMs: number | null;
}

export interface WebhookSilence {
  sinceMs: number;
  polledRequests: number;
}

export const PAUSE_KEY = 'protection_pause';
export const SILENCE_KEY = 'webhooks_silent';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

const SETTINGS_KEY: Record<PauseKind, keyof Omit<ProtectionSettings, 'webhook_silence'>> = {
  account_refusal: 'account_refusals',
  default_spike: 'default_spike',
  drawdown: 'drawdown',
};

export interface ProtectionsDeps {
  store: Pick<Store, 'state' | 'account' | 'signals'>;
  clock: Clock;
  log: Logger;
  settings: () => ProtectionSettings;
  notify?: (event: NotificationEvent, data: Record<string, unknown>) => void;
}

export class Protections {
  /** When account-level refusals were heard, within the window. */
  private refusals: number[] = [];

  constructor(private readonly deps: ProtectionsDeps) {}

  /** The pause in force now, if any; lifts (and notifies) a pause whose time is over or whose protection was turned off. */
  activePause(): Pause | undefined {
    const pause = readJson<Pause>(this.deps.store.state.get(PAUSE_KEY));
    if (pause === undefined) return undefined;
    const expired = pause.untilMs !== null && this.deps.clock.now() >= pause.untilMs;
    const turnedOff = !this.deps.settings()[SETTINGS_KEY[pause.kind]].enabled;
    if (expired || turnedOff) {
      this.lift(pause, expired ? 'its time is over' : 'its protection is turned off');
      return undefined;
    }
    return pause;
  }

  /** Hears the service's text of a refused offer; account-level refusals count toward a pause. */
  noteOfferRefusal(serviceText: string | undefined): void {
    const settings = this.deps.settings().account_refusals;
    if (!settings.enabled || serviceText === undefined) return;
    const text = serviceText.toLowerCase();
    if (!settings.patterns.some((pattern) => text.includes(pattern.toLowerCase()))) return;
    const now = this.deps.clock.now();
    const windowMs = settings.window_minutes * MINUTE_MS;
    this.refusals = [...this.refusals.filter((at) => at > now - windowMs), now];
    if (this.refusals.length < settings.count || this.activePause() !== undefined) return;
    this.pause('account_refusal', `account refused offers ${this.refusals.length} times in ${settings.window_minutes} min: "${serviceText}"`, settings.pause_hours);
    this.refusals = [];
  }

  /** The periodic check: default spike and drawdown on the lender's own loans, and silent webhooks. */
  check(): void {
    const settings = this.deps.settings();
    const now = this.deps.clock.now();
    if (this.activePause() === undefined) {
      const loans = this.deps.store.account.loans();
      const spike = settings.default_spike;
      if (spike.enabled) {
        const health = vintageHealth(loans, now - spike.window_days * DAY_MS);
        const share = health.loans === 0 ? 0 : health.troubled / health.loans;
        if (health.loans >= spike.min_loans && share > spike.max_default_share) {
          this.pause(
            'default_spike',
            `${health.troubled} of ${health.loans} loans of the last ${spike.window_days} days in collection or default (${percent(share)} > ${percent(spike.max_default_share)})`,
            spike.pause_hours,
          );
        }
      }
      const drawdown = settings.drawdown;
      if (drawdown.enabled && this.activePause() === undefined) {
        const health = vintageHealth(loans, now - drawdown.window_days * DAY_MS);
        const share = health.principalCents === 0 ? 0 : health.unrecoveredCents / health.principalCents;
        if (health.loans >= drawdown.min_loans && share > drawdown.max_loss_share) {
          this.pause(
            'drawdown',
            `${formatCents(health.unrecoveredCents)} of ${formatCents(health.principalCents)} lent in the last ${drawdown.window_days} days unrecovered (${percent(share)} > ${percent(drawdown.max_loss_share)})`,
            drawdown.pause_hours,
          );
        }
      }
    }
    this.checkWebhookSilence(now);
  }

  /** Lifts the pause in force (`lendbot resume`); returns what it lifted. */
  resume(): Pause | undefined {
    const pause = readJson<Pause>(this.deps.store.state.get(PAUSE_KEY));
    if (pause !== undefined) this.lift(pause, 'resumed by the operator');
    return pause;
  }

  /** The silent-webhooks alert in force, if any. */
  webhookSilence(): WebhookSilence | undefined {
    return readJson<WebhookSilence>(this.deps.store.state.get(SILENCE_KEY));
  }

  private checkWebhookSilence(now: number): void {
    const settings = this.deps.settings().webhook_silence;
    const before = this.webhookSilence();
    const since = now - settings.window_hours * HOUR_MS;
    const polled = this.deps.store.signals.requestsFirstSeenSince(since).poll;
    const silent = settings.enabled && polled >= settings.min_polled_requests && this.deps.store.signals.webhooksReceivedSince(since) === 0;
    if (silent && before === undefined) {
      const alert: WebhookSilence = { sinceMs: now, polledRequests: polled };
      this.deps.store.state.set(SILENCE_KEY, JSON.stringify(alert), now);
      const message = `no webhook in ${settings.window_hours} h while polls found ${polled} new requests: the subscription may be deactivated (spec 6.3); ask the marketplace to reactivate it`;
      this.deps.log.warn({ polled, windowHours: settings.window_hours }, message);
      this.deps.notify?.('webhooks_silent', { polled_requests: polled, window_hours: settings.window_hours, message });
    } else if (!silent && before !== undefined) {
      this.deps.store.state.set(SILENCE_KEY, 'null', now);
      this.deps.log.info('webhooks arrive again');
    }
  }

  private pause(kind: PauseKind, figures: string, pauseHours: number): void {
    const now = this.deps.clock.now();
    const untilMs = now + pauseHours * HOUR_MS;
    const pause: Pause = { kind, reason: `${kind} protection: ${figures}; paused until ${isoFromMs(untilMs)} or lendbot resume`, sinceMs: now, untilMs };
    this.deps.store.state.set(PAUSE_KEY, JSON.stringify(pause), now);
    this.deps.log.warn({ kind, untilMs }, `new offers paused: ${pause.reason}`);
    this.deps.notify?.('protection_paused', { kind, reason: pause.reason, until: isoFromMs(untilMs) });
  }

  private lift(pause: Pause, why: string): void {
    const now = this.deps.clock.now();
    this.deps.store.state.set(PAUSE_KEY, 'null', now);
    this.deps.log.info({ kind: pause.kind }, `offers resume: ${pause.kind} pause lifted (${why})`);
    this.deps.notify?.('protection_lifted', { kind: pause.kind, why });
  }
}

/** The pause stored now, if it still holds (for reports: reading never lifts or notifies). */
export function storedPause(state: Pick<Store['state'], 'get'>, nowMs: number): Pause | undefined {
  const pause = readJson<Pause>(state.get(PAUSE_KEY));
  return pause !== undefined && (pause.untilMs === null || nowMs < pause.untilMs) ? pause : undefined;
}

/** The silent-webhooks alert stored now, if any. */
export function storedWebhookSilence(state: Pick<Store['state'], 'get'>): WebhookSilence | undefined {
  return readJson<WebhookSilence>(state.get(SILENCE_KEY));
}

function readJson<T>(text: string | undefined): T | undefined {
  if (text === undefined || text === '' || text === 'null') return undefined;
  return JSON.parse(text) as T;
}

function percent(share: number): string {
  return `${(share * 100).toFixed(1)}%`;
}
