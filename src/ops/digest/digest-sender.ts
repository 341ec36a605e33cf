/**
 * The digest: one notification a day or a week (`notifications.digest`) summing up the last
 * complete period of the run's clock (UTC days; weeks from Monday): net earned, interest, losses,
 * idle cash, next month's expected inflow, offers made and won (digest-figures.ts). The
 * notification check calls `check` on its schedule; the state table keeps the period last told,
 * so a restart neither repeats nor skips one. The first check on a database only takes a
 * baseline. A sandbox clock racing through days between two checks gets one digest of the last
 * complete period, not one per simulated day.
 */
import type { Clock } from '../../clock/clock.js';
import type { StateRepository } from '../../store/index.js';
import { isoFromMs, utcDayBounds } from '../../store/sql-values.js';
import type { SendResult } from '../notifier.js';
import type { NotificationEvent } from '../notifications-config.js';
import type { DigestFiguresProvider, DigestPeriod } from './digest-figures.js';
import { DAY_MS } from '../../clock/time-constants.js';

export const DIGEST_PERIODS = ['off', 'day', 'week'] as const;
export type DigestEvery = (typeof DIGEST_PERIODS)[number];

/** The start of the last period told (ISO), in the state table. */
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

export class DigestSender {
  constructor(private readonly deps: DigestDeps) {}

  /** Sends the digest of the period just ended, once; returns whether one was sent. */
  async check(): Promise<boolean> {
    const { every, state, clock } = this.deps;
    const nowMs = clock.now();
    const current = periodHolding(every, nowMs);
    const currentKey = isoFromMs(current.fromMs);
    const told = state.get(NOTIFY_DIGEST_KEY);
    if (told === currentKey) return false;
    state.set(NOTIFY_DIGEST_KEY, currentKey, nowMs);
    if (told === undefined) return false;
    const ended = periodHolding(every, current.fromMs - 1);
    return (await this.deps.notify('digest', digestData(every, ended, this.deps.figures, nowMs))) === 'sent';
  }
}
