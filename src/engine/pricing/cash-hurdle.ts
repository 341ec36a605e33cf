/**
 * The price of scarce cash (docs/strategies.md, "cash_hurdle"): a strategy's hurdle
 * (`target_return`) moves with how much free cash the lender has against the recent flow of
 * requests the strategy would offer on. Cash that cannot fund what keeps coming is worth more
 * than the hurdle says, so the hurdle rises and only the better-paid loans take it; cash that
 * sits idle earns nothing, so the hurdle falls and more offers are made.
 *
 *   coverage = (free cash − this loan) / expected demand over the window
 *   coverage < 1: shift = +max_raise × (1 − coverage)        (all of max_raise at no free cash)
 *   coverage ≥ 1: shift = −max_cut × (1 − 1 / coverage)      (half of max_cut at twice the demand)
 *
 * Expected demand is what the strategies offered on in the last `window_days`, each request's
 * total weighted by the modelled chance the offer is taken (the cash it would actually draw).
 * The loan being priced is taken out of the free cash first: its opportunity cost is what the
 * cash it uses could not fund afterwards (a loan that takes the last free cash is priced as
 * scarce). With no demand at all, cash is idle: the full cut. The shifted hurdle never goes below zero.
 * A window younger than `window_days` is scaled up to it (demandOver).
 */
import type { Cents } from '../../domain/index.js';
import type { DecisionReason } from '../../domain/decision-reason.js';
import { DAY_MS } from '../../clock/time-constants.js';

/** The longest window a strategy may ask for, and how many day buckets a caller keeps. */
export const MAX_CASH_WINDOW_DAYS = 90;

/** What the caller knows about cash when it decides: plain data, the same in a replay and live. */
export interface CashPosition {
  /** Balance less what pending offers hold back and the cash reserve (never below zero). */
  freeCents: Cents;
  /**
   * Expected demand for cash by UTC day, today first, at most MAX_CASH_WINDOW_DAYS entries: the
   * totals of requests a strategy offered on, each weighted by its modelled take-up.
   */
  recentDemandCents: readonly number[];
}

/** A strategy's `pricing.cash_hurdle`, compiled. */
export interface CashHurdleSettings {
  maxRaise: number;
  maxCut: number;
  windowDays: number;
}

/**
 * The expected demand over the last `windowDays` days (today counts as one). A window younger
 * than that (a replay's or a daemon's first days) is scaled up to it from the days it has, so a
 * fresh start does not read as idle cash.
 */
export function demandOver(position: CashPosition, windowDays: number): number {
  const kept = position.recentDemandCents.length;
  const days = Math.min(windowDays, kept);
  let sum = 0;
  for (let index = 0; index < days; index += 1) sum += position.recentDemandCents[index] ?? 0;
  return kept > 0 && kept < windowDays ? (sum * windowDays) / kept : sum;
}

/** The hurdle shift for `freeCents` against `demandCents`, within [−maxCut, +maxRaise]. */
export function cashHurdleShift(settings: CashHurdleSettings, freeCents: number, demandCents: number): number {
  const free = Math.max(0, freeCents);
  if (!(demandCents > 0)) return free > 0 ? -settings.maxCut : 0;
  const coverage = free / demandCents;
  if (coverage <= 1) return settings.maxRaise * (1 - coverage);
  return -settings.maxCut * (1 - 1 / coverage);
}

/** The hurdle a request is priced with, and the reason that says why it moved. */
export interface ShiftedHurdle {
  targetReturn: number;
  reason: DecisionReason;
}

/** `baseTarget` moved by the cash position once a loan of `loanCents` is funded from it, never below zero, with its reason. */
export function shiftedHurdle(settings: CashHurdleSettings, baseTarget: number, position: CashPosition, loanCents: number): ShiftedHurdle {
  const demand = demandOver(position, settings.windowDays);
  const shift = cashHurdleShift(settings, position.freeCents - loanCents, demand);
  const targetReturn = Math.max(0, baseTarget + shift);
  const sign = shift >= 0 ? '+' : '-';
  const reason: DecisionReason = {
    code: 'price_cash_hurdle',
    shift: sign + Math.abs(shift).toFixed(4),
    target: targetReturn.toFixed(4),
    free: (position.freeCents / 100).toFixed(2),
    loan: (loanCents / 100).toFixed(2),
    demand: (demand / 100).toFixed(2),
    days: String(settings.windowDays),
  };
  return { targetReturn, reason };
}

/**
 * The caller's rolling window of expected demand (a replay, the daemon): one bucket a UTC day,
 * at most MAX_CASH_WINDOW_DAYS of them, so memory stays bounded however long it runs.
 */
export class RecentDemand {
  /** Today first; shared with the positions handed out (read-only to them). */
  private readonly days: number[] = [];
  private todayMs = Number.NEGATIVE_INFINITY;

  /** Counts `cents` of expected demand at `nowMs` (times only move forward). */
  add(nowMs: number, cents: number): void {
    this.roll(nowMs);
    if (cents > 0 && Number.isFinite(cents)) this.days[0] = (this.days[0] ?? 0) + cents;
  }

  /** The position to decide with at `nowMs`: a new object each time, so a remembered price is not reused across cash states. */
  position(nowMs: number, freeCents: Cents): CashPosition {
    this.roll(nowMs);
    return { freeCents: Math.max(0, freeCents), recentDemandCents: this.days };
  }

  /** Starts the day of `nowMs`, with an empty bucket for each day passed. */
  private roll(nowMs: number): void {
    const dayMs = nowMs - (nowMs % DAY_MS);
    if (dayMs <= this.todayMs) return;
    const passed = Number.isFinite(this.todayMs) ? Math.min(MAX_CASH_WINDOW_DAYS, Math.round((dayMs - this.todayMs) / DAY_MS)) : 1;
    for (let day = 0; day < passed; day += 1) this.days.unshift(0);
    if (this.days.length > MAX_CASH_WINDOW_DAYS) this.days.length = MAX_CASH_WINDOW_DAYS;
    this.todayMs = dayMs;
  }
}
