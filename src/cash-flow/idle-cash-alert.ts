/**
 * The idle-cash alert (an alert, not a pause): the share of money idle stayed above
 * `risk.protections.idle_cash.max_idle_share` for `for_hours` of the clock. The check records a
 * sample of the series (idle-cash.ts), keeps in the state table since when the share has been
 * above the threshold, and tells once when the alert begins; it ends (and may begin again later)
 * when the share falls to the threshold or below, or when the alert is turned off.
 *
 * On a sped-up clock (the sandbox runs a day a second) the alert also waits `for_hours` of the
 * machine's own time: it is for a person, who cannot act on 72 simulated hours that passed in
 * three seconds, so a demo stays quiet while the share, the series and "above since" still
 * follow the run's clock (docs/operations.md, "Idle cash").
 */
import type { Clock } from '../clock/clock.js';
import type { Logger } from '../log/logger.js';
import type { ProtectionSettings, RiskLimits } from '../risk/index.js';
import { isoFromMs, type Store } from '../store/index.js';
import { IDLE_ALERT_KEY, storedIdleAlert, type IdleAlertState } from '../money/idle-alert-state.js';
import { idleShare, idleSampleNow, recordIdleSample } from '../money/idle-cash.js';
import { idleReasons } from '../money/idle-cash-report.js';
import type { NotificationEvent } from '../domain/index.js';
import { HOUR_MS } from '../clock/time-constants.js';

/**
 * How often the daemon checks, in wall time: every five minutes live, every five seconds on a
 * simulated clock (the sandbox runs a day a second), so the series has points either way. The
 * samples' spacing and the alert's hours are in the clock's time.
 */
export function idleCashSchedule(clockSpeed: number): string {
  return clockSpeed > 1 ? '*/5 * * * * *' : '*/5 * * * *';
}

export type IdleAlertChange = { kind: 'began'; state: IdleAlertState } | { kind: 'ended'; state: IdleAlertState } | undefined;

/**
 * Updates the stored state with the share seen at `nowMs`; says whether the alert began or ended.
 * `wallNowMs`, given on a sped-up clock only, is the machine's time: the alert then waits
 * `for_hours` of it too.
 */
function updateIdleAlert(
  state: Store['state'],
  settings: ProtectionSettings['idle_cash'],
  share: number,
  nowMs: number,
  wallNowMs?: number,
): IdleAlertChange {
  const current = storedIdleAlert(state);
  if (!settings.enabled || share <= settings.max_idle_share) {
    if (current === undefined) return undefined;
    state.set(IDLE_ALERT_KEY, 'null', nowMs);
    return current.alertedAtMs === null ? undefined : { kind: 'ended', state: current };
  }
  const above: IdleAlertState = current ?? {
    aboveSinceMs: nowMs,
    alertedAtMs: null,
    ...(wallNowMs === undefined ? {} : { aboveSinceWallMs: wallNowMs }),
  };
  const forMs = settings.for_hours * HOUR_MS;
  const longEnoughOnWall = wallNowMs === undefined || wallNowMs - (above.aboveSinceWallMs ?? wallNowMs) >= forMs;
  if (above.alertedAtMs === null && nowMs - above.aboveSinceMs >= forMs && longEnoughOnWall) {
    const alerted = { ...above, alertedAtMs: nowMs };
    state.set(IDLE_ALERT_KEY, JSON.stringify(alerted), nowMs);
    return { kind: 'began', state: alerted };
  }
  if (current === undefined) state.set(IDLE_ALERT_KEY, JSON.stringify(above), nowMs);
  return undefined;
}

/** What the idle-cash watch, the cash-flow wing's one job, reads of the daemon's built parts (src/daemon/daemon-parts.ts, DaemonParts). */
export interface CashFlowParts {
  store: Store;
  log: Logger;
  dryRun: boolean;
  /** `real`: the alert's hours also on the machine's clock when `speed` (simulated seconds per real second) is above 1. */
  clocks: { market: Clock; real: Clock; speed: number };
  /** Read at every check, so a hot-reloaded `risk:` section applies at once. */
  active: { limits: () => RiskLimits };
  /** Where the alert goes (src/daemon/notice-relay.ts). */
  instruments: { notices: { notify(event: NotificationEvent, data: Record<string, unknown>): void } };
}

/** The daemon's periodic check: a sample of the series, then the alert. */
export class IdleCashWatch {
  private readonly log: Logger;
  constructor(private readonly parts: CashFlowParts) {
    this.log = parts.log.child({ component: 'idle-cash' });
  }

  check(): IdleAlertChange {
    const { store, clocks, dryRun } = this.parts;
    const limits = this.parts.active.limits();
    const now = clocks.market.now();
    const sample = idleSampleNow(store, now, limits, dryRun);
    recordIdleSample(store.state, sample);
    const share = idleShare(sample);
    const settings = limits.protections.idle_cash;
    const change = updateIdleAlert(store.state, settings, share, now, clocks.speed > 1 ? clocks.real.now() : undefined);
    if (change?.kind === 'began') {
      const why = idleReasons(store, now, settings.for_hours, sample.reservedCents).why;
      const percent = Math.round(share * 100);
      const message = `${percent}% of your money has been idle for more than ${settings.for_hours} h (the alert is set at ${Math.round(settings.max_idle_share * 100)}%). ${why}`;
      this.log.warn({ share, since: isoFromMs(change.state.aboveSinceMs) }, message);
      this.parts.instruments.notices.notify('idle_cash', {
        message,
        idle_cents: sample.freeCents,
        since: isoFromMs(change.state.aboveSinceMs),
      });
    } else if (change?.kind === 'ended') {
      this.log.info({ share }, 'idle cash is back under its alert threshold');
    }
    return change;
  }
}
