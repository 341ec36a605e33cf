/**
 * Protections: automatic pauses of new offers when something is wrong at the level of the
 * account or of the book, not of one request (freqtrade's "protections" are the model):
 *
 * - account_refusals: the service refused offers for account reasons (the investor is borrowing,
 *   no verified bank account: marketplace 4.2 rules 2 and 9) `count` times within a window. Every
 *   further offer would be refused too.
 * - default_spike and drawdown: the lender's recent loans go bad (book-protections.ts).
 *
 * A pause is kept in the store's state table (pause-state.ts), turns every offer into a skip with
 * the reason `guard paused: ...`, shows in `lendbot status` and /metrics, and is notified when it
 * starts and when it ends. It lifts itself after `pause_hours`, when its protection is set
 * `enabled: false`, or at `lendbot resume` (another process: the daemon notices the lift at its
 * next read and notifies it).
 *
 * webhook_silence is an alert, not a pause (webhook-silence.ts); calibration is an alert that
 * pauses when configured (calibration-drift.ts).
 */
import type { Clock } from '../../clock/clock.js';
import type { Logger } from '../../log/logger.js';
import type { ProtectionSettings } from '../../risk/index.js';
import { isoFromMs, type Store } from '../../store/index.js';
import type { NotificationEvent } from '../../domain/index.js';
import { isAccountRefusal, RefusalWindow } from './account-refusals.js';
import { bookTrigger } from './book-protections.js';
import { CALIBRATION_PAUSED_BAD_KEY, newBadLoans, updateCalibrationDrift } from './calibration-drift.js';
import { PAUSE_KEY, readPause, readStateJson, type Pause, type PauseKind } from './pause-state.js';
import { storedWebhookSilence, updateWebhookSilence, type WebhookSilence } from './webhook-silence.js';
import { MINUTE_MS, HOUR_MS } from '../../clock/time-constants.js';

/** The troubled loans behind book pauses so far: they do not trigger a pause twice. */
const PAUSED_LOANS_KEY = 'protection_paused_loans';

const RESUMED = 'resumed by the operator';

const SETTINGS_KEY: Record<Exclude<PauseKind, 'operator'>, 'account_refusals' | 'default_spike' | 'drawdown' | 'calibration'> = {
  account_refusal: 'account_refusals',
  default_spike: 'default_spike',
  drawdown: 'drawdown',
  calibration: 'calibration',
};

export interface ProtectionsDeps {
  store: Pick<Store, 'state' | 'account' | 'signals' | 'calibration'>;
  clock: Clock;
  log: Logger;
  /** Read at every use, so a hot-reloaded `risk.protections` applies at once. */
  settings: () => ProtectionSettings;
  /** Sends a notification; never throws (the daemon passes its notice relay, src/daemon/notice-relay.ts). */
  notify?: (event: NotificationEvent, data: Record<string, unknown>) => void;
}

export class Protections {
  private readonly refusals = new RefusalWindow();
  /** The pause this process last saw in force: one that then vanished was lifted by `lendbot resume`. */
  private seenPause: Pause | undefined;

  /** When the daemon finished starting and listens for webhooks; unset outside a daemon. */
  private listeningSinceMs: number | undefined;

  constructor(private readonly deps: ProtectionsDeps) {}

  /** Called by the daemon at the end of its start: silence is claimed only over time it listened. */
  listeningSince(ms: number): void {
    this.listeningSinceMs = ms;
  }

  /**
   * The pause in force now, if any. Read from the store at each call (`lendbot resume` writes
   * it from another process); a pause whose time is over or whose protection was turned off is
   * lifted here, and notified once.
   */
  activePause(): Pause | undefined {
    const pause = readPause(this.deps.store.state);
    if (pause === undefined) {
      // Lifted in the database by `lendbot resume`, another process that notifies nobody.
      if (this.seenPause !== undefined) this.announceLift(this.seenPause, RESUMED);
      return undefined;
    }
    const expired = pause.untilMs !== null && this.deps.clock.now() >= pause.untilMs;
    // An operator's pause has no protection setting to turn it off: only resume lifts it.
    const turnedOff = pause.kind !== 'operator' && !this.deps.settings()[SETTINGS_KEY[pause.kind]].enabled;
    if (!expired && !turnedOff) {
      this.seenPause = pause;
      return pause;
    }
    this.lift(pause, expired ? 'its time is over' : 'its protection is turned off');
    return undefined;
  }

  /** Hears the service's text of a refused offer; account-level refusals count toward a pause. */
  noteOfferRefusal(serviceText: string | undefined): void {
    const settings = this.deps.settings().account_refusals;
    if (!settings.enabled || !isAccountRefusal(serviceText, settings.patterns)) return;
    const heard = this.refusals.add(this.deps.clock.now(), settings.window_minutes * MINUTE_MS);
    if (heard < settings.count || this.activePause() !== undefined) return;
    this.pause(
      'account_refusal',
      `account refused offers ${heard} times in ${settings.window_minutes} min: "${serviceText ?? ''}"`,
      settings.pause_hours,
    );
    this.refusals.clear();
  }

  /** The periodic check: default spike and drawdown on the lender's own loans, and silent webhooks. */
  check(): void {
    const settings = this.deps.settings();
    const now = this.deps.clock.now();
    if (this.activePause() === undefined) {
      const pausedFor = new Set(readStateJson<number[]>(this.deps.store.state, PAUSED_LOANS_KEY) ?? []);
      const loans = this.deps.store.account.loans();
      const trigger = bookTrigger(loans, now, settings, pausedFor);
      if (trigger !== undefined) {
        // Remember only loans still troubled, so the list never grows beyond the troubled book.
        const troubled = new Set(
          loans.filter((loan) => loan.listStatus === 'collection' || loan.listStatus === 'default').map((loan) => loan.id),
        );
        const remembered = [...new Set([...pausedFor, ...trigger.troubledLoanIds])].filter((id) => troubled.has(id));
        this.deps.store.state.set(PAUSED_LOANS_KEY, JSON.stringify(remembered), now);
        this.pause(trigger.kind, trigger.figures, trigger.pauseHours);
      }
    }
    this.checkWebhookSilence(settings.webhook_silence, now);
    this.checkCalibration(settings.calibration, now);
  }

  /** Lifts the pause written in the store (`lendbot resume`), even one whose time is over; returns it. */
  resume(): Pause | undefined {
    const pause = readPause(this.deps.store.state);
    if (pause !== undefined) this.lift(pause, RESUMED);
    return pause;
  }

  /**
   * Pauses new offers by hand until resumed (the agent connector's pause_offers). A pause already
   * in force is kept as it is and returned: the first reason stays the one shown.
   */
  pauseByOperator(why: string): { pause: Pause; already: boolean } {
    const current = this.activePause();
    if (current !== undefined) return { pause: current, already: true };
    const now = this.deps.clock.now();
    const pause: Pause = {
      kind: 'operator',
      reason: `paused by ${why}; until someone resumes offers (the dashboard, Telegram /resume, lendbot resume or an agent)`,
      sinceMs: now,
      untilMs: null,
    };
    this.deps.store.state.set(PAUSE_KEY, JSON.stringify(pause), now);
    this.seenPause = pause;
    this.deps.log.warn({ kind: 'operator' }, `new offers paused: ${pause.reason}`);
    this.deps.notify?.('protection_paused', { kind: 'operator', reason: pause.reason, since: isoFromMs(now), until: null });
    return { pause, already: false };
  }

  /** The silent-webhooks alert in force, if any. */
  webhookSilence(): WebhookSilence | undefined {
    return storedWebhookSilence(this.deps.store.state);
  }

  private checkWebhookSilence(settings: ProtectionSettings['webhook_silence'], now: number): void {
    const change = updateWebhookSilence(this.deps.store, settings, now, this.listeningSinceMs);
    if (change?.kind === 'began') {
      const polled = change.alert.polledRequests;
      const message = `no webhook in ${change.windowHours} h while polls found ${polled} new requests: the subscription may be deactivated; ask the marketplace to reactivate it`;
      this.deps.log.warn({ polled, windowHours: change.windowHours }, message);
      this.deps.notify?.('webhooks_silent', { polled_requests: polled, window_hours: change.windowHours, message });
    } else if (change?.kind === 'ended') {
      this.deps.log.info('webhooks arrive again; the silent-webhooks alert is over');
    }
  }

  /** Alerts when realised default runs above predicted beyond noise, and pauses when configured and the evidence is new. */
  private checkCalibration(settings: ProtectionSettings['calibration'], now: number): void {
    const change = updateCalibrationDrift(this.deps.store, settings, now);
    if (change === undefined) return;
    if (change.kind === 'ended') {
      this.deps.log.info('realised default is back within the predicted; the calibration alert is over');
      return;
    }
    if (change.kind === 'began') {
      const message = `realised default runs above the predicted beyond noise: ${change.drift.figures}; check the score (lendbot train calibration) or lower the amounts`;
      this.deps.log.warn({ loans: change.pooled.loans }, message);
      this.deps.notify?.('calibration_drift', { message });
    }
    if (!settings.pause || this.activePause() !== undefined || !newBadLoans(this.deps.store.state, change.pooled)) return;
    this.deps.store.state.set(CALIBRATION_PAUSED_BAD_KEY, String(change.pooled.defaulted + change.pooled.delinquent), now);
    this.pause('calibration', change.drift.figures, settings.pause_hours);
  }

  private pause(kind: PauseKind, figures: string, pauseHours: number): void {
    const now = this.deps.clock.now();
    const untilMs = now + pauseHours * HOUR_MS;
    const pause: Pause = {
      kind,
      reason: `${kind} protection: ${figures}; paused until ${isoFromMs(untilMs)} or lendbot resume`,
      sinceMs: now,
      untilMs,
    };
    this.deps.store.state.set(PAUSE_KEY, JSON.stringify(pause), now);
    this.seenPause = pause;
    this.deps.log.warn({ kind, until: isoFromMs(untilMs) }, `new offers paused: ${pause.reason}`);
    this.deps.notify?.('protection_paused', { kind, reason: pause.reason, since: isoFromMs(now), until: isoFromMs(untilMs) });
  }

  private lift(pause: Pause, why: string): void {
    this.deps.store.state.set(PAUSE_KEY, 'null', this.deps.clock.now());
    this.announceLift(pause, why);
  }

  private announceLift(pause: Pause, why: string): void {
    this.seenPause = undefined;
    this.deps.log.info({ kind: pause.kind }, `offers resume: ${pause.kind} pause lifted (${why})`);
    this.deps.notify?.('protection_lifted', { kind: pause.kind, reason: pause.reason, why });
  }
}
