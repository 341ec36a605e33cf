/**
 * The digest: one notification a day or a week (`notifications.digest`) summing up the last
 * complete period of the run's clock (UTC days; weeks from Monday): net earned, interest, losses,
 * idle cash, next month's expected inflow, offers made and won (digest-figures.ts). The
 * notification check calls `check` on its schedule; the state table keeps the first period not
 * yet told, so each period is sent once across restarts, downtime and failed deliveries (issue 37,
 * item 6: 3 of 6 days were once never sent), at most MAX_CATCH_UP at a time. The first check on a
 * database only takes a baseline. A sandbox clock racing through days between two checks gets
 * one digest a check, of the last complete period, saying how many it did not send.
 */
import type { Clock } from '../../clock/clock.js';
import type { StateRepository } from '../../store/index.js';
import { isoFromMs, utcDayBounds } from '../../store/sql-values.js';
import type { SendResult } from '../notifier.js';
import type { NotificationEvent } from '../../domain/index.js';
import type { DigestFiguresProvider, DigestPeriod } from './digest-figures.js';
import { DAY_MS } from '../../clock/time-constants.js';

/** The start of the first period not yet told (ISO), in the state table: every one before it was sent or dropped. */
export const NOTIFY_DIGEST_KEY = 'notify_digest_period';

/** The period holding `ms`: its UTC day, or its week from Monday 00:00 UTC. */
export function periodHolding(every: 'day' | 'week', ms: number): DigestPeriod {
  const { startMs } = utcDayBounds(ms);
  if (every === 'day') return { fromMs: startMs, toMs: startMs + DAY_MS };
  const sinceMonday = (new Date(startMs).getUTCDay() + 6) % 7;
  const fromMs = startMs - sinceMonday * DAY_MS;
  return { fromMs, toMs: fromMs + 7 * DAY_MS };
}

export interface DigestDeps {
  every: 'day' | 'week';
  state: StateRepository;
  clock: Clock;
  figures: DigestFiguresProvider;
  notify: (event: NotificationEvent, data: Record<string, unknown>) => Promise<SendResult>;
  /** Periods sent at most in one check (default MAX_CATCH_UP; 1 on a sped-up clock, where days pass in seconds). */
  maxCatchUp?: number;
}

/** The digest's notification data for a period (cents, fractions and ISO times, as every event's). */
export function digestData(
  every: 'day' | 'week',
  period: DigestPeriod,
  figures: DigestFiguresProvider,
  nowMs: number,
): Record<string, unknown> {
  const f = figures.figures(period, nowMs);
  return {
    period: every,
    from: isoFromMs(period.fromMs),
    until: isoFromMs(period.toMs),
    net_earned_cents: f.netEarnedCents,
    interest_cents: f.interestCents,
    losses_cents: f.lossesCents,
    idle_cash_cents: f.idleCashCents,
    idle_share: f.idleShare,
    next_month_inflow_cents: f.nextMonthInflowCents,
    offers_made: f.offersMade,
    offers_won: f.offersWon,
  };
}

/** Periods sent at most in one check after downtime or failures; older ones are counted, not sent. */
const MAX_CATCH_UP = 7;

export class DigestSender {
  constructor(private readonly deps: DigestDeps) {}

  /**
   * Sends the digest of every period ended and not yet told, oldest first, each once: the state
   * moves past a period only once its digest is delivered (or the event is turned off), so a
   * failed delivery is tried again at the next check and a restart resumes where the last run
   * stopped. Beyond `maxCatchUp` periods the oldest are dropped and the first digest sent says how
   * many. Returns whether one was sent.
   */
  async check(): Promise<boolean> {
    const { every, state, clock } = this.deps;
    const nowMs = clock.now();
    const current = periodHolding(every, nowMs);
    const told = state.get(NOTIFY_DIGEST_KEY);
    const toldMs = told === undefined ? Number.NaN : Date.parse(told);
    if (!Number.isFinite(toldMs) || toldMs > current.fromMs) {
      // The first check on a database (or a clock set back): a baseline, nothing to tell yet.
      state.set(NOTIFY_DIGEST_KEY, isoFromMs(current.fromMs), nowMs);
      return false;
    }
    const due: DigestPeriod[] = [];
    for (let period = periodHolding(every, toldMs); period.toMs <= current.fromMs; period = periodHolding(every, period.toMs)) {
      due.push(period);
    }
    const limit = this.deps.maxCatchUp ?? MAX_CATCH_UP;
    const dropped = Math.max(0, due.length - limit);
    let sent = false;
    for (const [index, period] of due.slice(dropped).entries()) {
      const data = digestData(every, period, this.deps.figures, nowMs);
      const result = await this.deps.notify('digest', index === 0 && dropped > 0 ? { ...data, earlier_periods_not_sent: dropped } : data);
      if (result === 'failed') return sent;
      sent ||= result === 'sent';
      state.set(NOTIFY_DIGEST_KEY, isoFromMs(period.toMs), nowMs);
    }
    return sent;
  }
}
