/**
 * The idle-cash view the API, the dashboard, the agent connector and `lendbot status` show: the
 * share idle now and over time (idle-cash.ts), why money sat idle over the recent window (the
 * alert's `for_hours`), and the alert's state. The reasons, in plain words: no requests came; the
 * strategy skipped them (its filters, its score, no price under the borrower's maximum, data it
 * lacked); the guard's caps refused offers (by code); open offers hold money while they wait.
 */
import type { RiskLimits } from '../risk/index.js';
import { isoFromMs, type Store } from '../store/index.js';
import { storedIdleAlert } from './idle-alert-state.js';
import { idleSampleNow, idleShare, readIdleSamples } from './idle-cash.js';
import { HOUR_MS } from '../clock/time-constants.js';

/** Skip kinds of the strategy in plain words (the first word of the decisive reason). */
const STRATEGY_WORDS: Record<string, string> = {
  filter: "the strategy's filters",
  score: "the strategy's score",
  price: "no rate under the borrower's maximum paid enough",
  data: 'data the strategy needed was missing or over its budget',
  plugin: "the strategy's plugin",
};

/** Guard refusals in plain words, with the setting that decides them. */
const GUARD_WORDS: Record<string, string> = {
  insufficient_balance: 'not enough free cash',
  max_open_exposure: 'the cap on money lent out (max_open_exposure)',
  max_per_borrower: 'the cap per borrower (max_per_borrower)',
  max_share_by_risk_level: 'the cap per risk level (max_share_by_risk_level)',
  max_offers_per_day: 'the cap on offers a day (max_offers_per_day)',
  max_amount_per_day: 'the cap on amount offered a day (max_amount_per_day)',
  risk_level_not_allowed: 'risk levels not allowed (allowed_risk_levels)',
  kill_switch: 'the kill switch',
  paused: 'a pause of new offers',
  arm_share: "a split arm's share of the capital",
};

export interface IdleReasons {
  windowHours: number;
  requests: number;
  offers: number;
  skips: number;
  strategySkips: Array<{ kind: string; label: string; count: number }>;
  guardRefusals: Array<{ code: string; label: string; count: number }>;
  /** Money held by open offers now. */
  reservedCents: number;
  /** The main reason in one plain sentence. */
  why: string;
}

/** Why money sat idle over the last `windowHours` of the clock. */
export function idleReasons(
  store: Pick<Store, 'signals' | 'decisions' | 'cashFlow'>,
  nowMs: number,
  windowHours: number,
  reservedCents = 0,
): IdleReasons {
  const range = { sinceMs: nowMs - windowHours * HOUR_MS, untilMs: nowMs + 1 };
  const seen = store.signals.requestsFirstSeenBetween(range.sinceMs, range.untilMs);
  const actions = store.decisions.countByAction(range);
  const strategySkips: IdleReasons['strategySkips'] = [];
  const guardRefusals: IdleReasons['guardRefusals'] = [];
  for (const cause of store.cashFlow.skipCauses(range)) {
    if (cause.guardCode !== null)
      guardRefusals.push({
        code: cause.guardCode,
        label: GUARD_WORDS[cause.guardCode] ?? cause.guardCode.replaceAll('_', ' '),
        count: cause.count,
      });
    else strategySkips.push({ kind: cause.kind, label: STRATEGY_WORDS[cause.kind] ?? cause.kind, count: cause.count });
  }
  const requests = seen.webhook + seen.poll;
  const base = { windowHours, requests, offers: actions.offer, skips: actions.skip, strategySkips, guardRefusals, reservedCents };
  return { ...base, why: whyText(base) };
}

function whyText(reasons: Omit<IdleReasons, 'why'>): string {
  const window = `in the last ${reasons.windowHours} h`;
  if (reasons.requests === 0 && reasons.skips === 0 && reasons.offers === 0) return `No loan requests arrived ${window}.`;
  const strategy = reasons.strategySkips.reduce((sum, cause) => sum + cause.count, 0);
  const guard = reasons.guardRefusals.reduce((sum, cause) => sum + cause.count, 0);
  const held = reasons.reservedCents > 0 ? ` Open offers hold $${(reasons.reservedCents / 100).toFixed(2)} while they wait.` : '';
  const top = (causes: ReadonlyArray<{ label: string; count: number }>): string =>
    causes
      .slice(0, 2)
      .map((cause) => `${cause.label} ${cause.count}`)
      .join(', ');
  if (strategy === 0 && guard === 0)
    return `${reasons.offers} offers ${window} and no skips: money waits for offers to be accepted.${held}`;
  if (guard > strategy)
    return `The risk limits refused ${guard} of ${reasons.skips + reasons.offers} requests ${window} (${top(reasons.guardRefusals)}).${held}`;
  return `The strategy skipped ${strategy} of ${reasons.skips + reasons.offers} requests ${window} (${top(reasons.strategySkips)}).${held}`;
}

export interface IdleCashReport {
  at: string;
  share: number;
  freeCents: number;
  reservedCents: number;
  outstandingCents: number;
  /** The recorded series, oldest first, then now. */
  series: Array<{ at: string; share: number; freeCents: number }>;
  reasons: IdleReasons;
  alert: { enabled: boolean; maxIdleShare: number; forHours: number; aboveSince: string | null; alertedAt: string | null };
}

/** The idle-cash view as of `nowMs` (`lentOutCents`: the forecast's outstanding principal, when the caller has it). */
export function buildIdleCashReport(
  store: Store,
  nowMs: number,
  limits: RiskLimits,
  dryRun: boolean,
  lentOutCents?: number,
): IdleCashReport {
  const settings = limits.protections.idle_cash;
  const now = idleSampleNow(store, nowMs, limits, dryRun, lentOutCents);
  const recorded = readIdleSamples(store.state).filter((sample) => sample.atMs < nowMs);
  // The stored state is the last check's; a share back under the threshold now ends it at the
  // next check, so the views do not show an alert the figure beside it contradicts.
  const above = settings.enabled && idleShare(now) > settings.max_idle_share;
  const alert = above ? storedIdleAlert(store.state) : undefined;
  return {
    at: isoFromMs(nowMs),
    share: idleShare(now),
    freeCents: now.freeCents,
    reservedCents: now.reservedCents,
    outstandingCents: now.outstandingCents,
    series: [...recorded, now].map((sample) => ({ at: isoFromMs(sample.atMs), share: idleShare(sample), freeCents: sample.freeCents })),
    reasons: idleReasons(store, nowMs, settings.for_hours, now.reservedCents),
    alert: {
      enabled: settings.enabled,
      maxIdleShare: settings.max_idle_share,
      forHours: settings.for_hours,
      aboveSince: alert === undefined ? null : isoFromMs(alert.aboveSinceMs),
      alertedAt: alert?.alertedAtMs === undefined || alert.alertedAtMs === null ? null : isoFromMs(alert.alertedAtMs),
    },
  };
}
