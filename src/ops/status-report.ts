/**
 * The investor's dashboard in one value: balance, reserved and free cash, exposure by risk level,
 * today's offers against the caps, loans by status and their payments, this month's data spend
 * (providers' subscriptions included) and each strategy's spend against its own budget, the last poll, the webhook inbox depth and the kill switch.
 * `lendbot status` prints it and the metrics gauges are set from it, so both always agree.
 *
 * Every figure comes from an indexed query or a small table (offers, loans, payments, transfers), never
 * from a scan of the decisions table, so it stays fast with millions of decisions. A dry run's
 * paper book sums its own table (one row per dry-run offer, far fewer than decisions).
 */
import { retrainStatus, type RetrainStatus } from './retrain-status.js';
import { existsSync } from 'node:fs';
import { monthStartMs } from '../clock/utc-month.js';
import { pauseJson, storedPause, storedWebhookSilence } from './protections/index.js';
import { storedCalibrationDrift } from './protections/calibration-drift.js';
import { calibrationStatus, type CalibrationStatus } from './calibration.js';
import { refusalWarningText, storedRefusalWarning } from '../webhook/refusal-warning.js';
import type { StatusClock } from './status-clock.js';
import { marketLearningStatus, type MarketLearningStatus } from './market-learning-status.js';
import type { EquityFigures, LossRates } from '../money/equity.js';
import { equityNowKept } from '../money/equity-cache.js';
import { cashFlowStatus, type CashFlowStatus } from '../money/cash-flow-status.js';
import type { Cents } from '../domain/index.js';
import type { MarketSource } from '../engine/compiled-strategy.js';
import { accountMoney, capsNow, type RiskLimits } from '../risk/index.js';
import { offerStateCounts, type OfferStateCounts } from './offer-states-status.js';
import { readPaperBook, type PaperBookFigures } from './paper-book-figures.js';
import { isoFromMs, LAST_POLL_KEY, msFromIso, utcDayBounds, type PaymentTotals, type Store } from '../store/index.js';

export interface StrategyBudget {
  strategy: string;
  monthlyBudgetCents: Cents;
  /** Where the strategy's market response comes from, when it prices for expected profit ('default': the unfitted prior). */
  marketSource?: MarketSource;
}

/** A strategy's budget and what the purchases it asked for cost this month. */
interface StrategySpend extends StrategyBudget {
  spentCents: Cents;
}

/** A flat-priced provider's subscription charged this month, and the strategy whose request started it. */
interface SubscriptionCharge {
  provider: string;
  strategy: string | null;
  costCents: Cents;
  at: string;
}

export interface StatusInput {
  store: Store;
  nowMs: number;
  limits: RiskLimits;
  /** The monthly data budget of each configured strategy. */
  budgets: readonly StrategyBudget[];
  /** Report the dry run's simulated offers instead of the live ones. */
  dryRun: boolean;
  /** The clock `nowMs` and every stored time are in, when the caller knows it (`lendbot status`). */
  clock?: StatusClock;
  /**
   * Equity with these expected-loss shares (the config's `ledger:`); left out (null) without.
   * It reads the whole transfer history and every payment (bench/ledger.ts), so it is kept until
   * a sync stores something new or a minute passes (equity-cache.ts). `lendbot status`, the
   * overview (the dashboard's balance card) and get_status ask for it.
   */
  equityLossRates?: LossRates;
}

export interface StatusReport {
  at: string;
  /** Which clock `at` and every other time are in (null: the caller did not say). */
  clock: StatusClock | null;
  scope: 'live' | 'dry_run';
  balanceCents: Cents;
  reservedCents: Cents;
  /** balance − reserved − min cash reserve: what the next offer may use. */
  freeCents: Cents;
  minCashReserveCents: Cents;
  /** The last 30 days' offers by state as every surface shows them (store/offer-view.ts). */
  offers: OfferStateCounts;
  /** maxCents: the cap now, in cents, also when it is a share (maxShare) of the capital (risk/money-caps.ts). */
  exposure: { totalCents: Cents; byRiskLevelCents: Record<string, Cents>; maxCents: Cents | null; maxShare: number | null };
  offersToday: {
    offers: number;
    amountCents: Cents;
    maxOffers: number | null;
    maxAmountCents: Cents | null;
    maxAmountShare: number | null;
  };
  /** Balance plus money lent out: what caps given as shares are shares of. */
  capitalCents: Cents;
  decisionsToday: { offer: number; skip: number };
  /** Synced loans by the list they are in (current, completed, collection, default). */
  loansByStatus: Record<string, number>;
  /** The synced payments of every loan: paid, late (paid late or overdue), missed, the longest delay, fees. */
  payments: PaymentTotals;
  /** Cash + principal still out − loss expected on late loans, and its parts (money/equity.ts); null unless asked for. */
  equity: EquityFigures | null;
  /**
   * This month's data spend: `spentCents` is the account's (purchases of every strategy and of
   * agents, subscriptions included); each budget shows its strategy's own spend.
   */
  dataSpend: { monthStart: string; spentCents: Cents; subscriptions: SubscriptionCharge[]; budgets: StrategySpend[] };
  lastPoll: { at: string | null; ageSeconds: number | null };
  inboxDepth: number;
  killSwitch: { on: boolean; why: string | null };
  /** A protection's pause of new offers (docs/risk-guard.md, Protections). */
  pause: { kind: string; reason: string; since: string; until: string | null } | null;
  /** Polls find new requests but no webhook arrives: the subscription may be deactivated. */
  webhooksSilent: { since: string; polledRequests: number } | null;
  /** Validly signed webhooks keep being refused: the token layout may be misread (docs/webhooks.md). */
  webhookRefusals: { since: string; refused: number; warning: string } | null;
  /** A dry run's paper book (docs/daemon.md, "Paper book"); null live with no paper offers. */
  paperBook: PaperBookFigures | null;
  /** Strategies whose prices learn the market (pricing.learning): version, evidence, learned vs prior take-up. */
  marketLearning: MarketLearningStatus[];
  /** Predicted against realised default of the lender's loans by vintage (docs/operations.md, "Calibration"). */
  calibration: CalibrationStatus;
  /** Money expected back (default-adjusted forecast) and idle cash (cash-flow-status.ts). */
  cashFlow: CashFlowStatus;
  /** Retraining while live: the last round and the next look (retrain-status.ts); null before the first round. */
  retrain: RetrainStatus | null;
}

/** Builds the report from the store as of `nowMs`. */
export function buildStatusReport(input: StatusInput): StatusReport {
  const { store, nowMs, limits } = input;
  const scope = { nowMs, expiryMs: limits.offerExpiryMs, dryRun: input.dryRun };
  const money = accountMoney(store, nowMs, limits, input.dryRun);
  const exposure = store.exposure.summary(scope);
  const today = store.offers.dailyTotals(scope);
  // The guard's own caps for this money: a share of the capital becomes cents as checkOffer reads it.
  const caps = capsNow(limits, { ...money, exposureCents: exposure.totalCents });
  const monthStart = monthStartMs(nowMs);
  const lastPollIso = store.state.get(LAST_POLL_KEY) ?? null;
  const lastPollMs = lastPollIso === null ? Number.NaN : msFromIso(lastPollIso);
  return {
    at: isoFromMs(nowMs),
    clock: input.clock ?? null,
    scope: input.dryRun ? 'dry_run' : 'live',
    ...money,
    offers: offerStateCounts(store, nowMs, limits, input.dryRun),
    exposure: {
      totalCents: exposure.totalCents,
      byRiskLevelCents: Object.fromEntries(Object.entries(exposure.byRiskLevelCents).map(([level, cents]) => [level, cents])),
      maxCents: caps.maxOpenExposureCents ?? null,
      maxShare: limits.maxOpenExposureShare ?? null,
    },
    capitalCents: caps.capitalCents,
    offersToday: {
      offers: today.offers,
      amountCents: today.amountCents,
      maxOffers: limits.maxOffersPerDay ?? null,
      maxAmountCents: caps.maxAmountPerDayCents ?? null,
      maxAmountShare: limits.maxAmountPerDayShare ?? null,
    },
    decisionsToday: decisionsToday(store, nowMs),
    loansByStatus: store.account.loanCountsByList(),
    payments: store.payments.totals(),
    equity: input.equityLossRates === undefined ? null : equityNowKept(store, nowMs, input.equityLossRates),
    dataSpend: dataSpend(store, monthStart, nowMs, input.budgets),
    lastPoll: {
      at: lastPollIso,
      ageSeconds: Number.isNaN(lastPollMs) ? null : Math.max(0, Math.round((nowMs - lastPollMs) / 1000)),
    },
    inboxDepth: store.inbox.depth(),
    killSwitch: killSwitchState(limits),
    pause: pauseState(store, nowMs),
    webhooksSilent: silenceState(store),
    webhookRefusals: refusalState(store),
    paperBook: input.dryRun ? readPaperBook(store, nowMs, limits) : readPaperBook(store, nowMs, limits, true),
    marketLearning: marketLearningStatus(store),
    calibration: calibrationStatus(store, nowMs, limits.protections.calibration, storedCalibrationDrift(store.state)),
    cashFlow: cashFlowStatus(store, nowMs, limits, input.dryRun),
    retrain: retrainStatus(store),
  };
}

function dataSpend(store: Store, monthStart: number, nowMs: number, budgets: readonly StrategyBudget[]): StatusReport['dataSpend'] {
  const month = { fromMs: monthStart, toMs: nowMs + 1 };
  return {
    monthStart: isoFromMs(monthStart),
    spentCents: store.purchases.spendCents(month),
    subscriptions: store.purchases
      .subscriptions(month)
      .map((row) => ({ provider: row.provider ?? '', strategy: row.strategy, costCents: row.costCents, at: row.boughtAt })),
    budgets: budgets.map((budget) => ({
      ...budget,
      spentCents: store.purchases.strategySpendCents({ strategy: budget.strategy, ...month }),
    })),
  };
}

function pauseState(store: Store, nowMs: number): StatusReport['pause'] {
  const pause = storedPause(store.state, nowMs);
  return pause === undefined ? null : pauseJson(pause);
}

function silenceState(store: Store): StatusReport['webhooksSilent'] {
  const silence = storedWebhookSilence(store.state);
  return silence === undefined ? null : { since: isoFromMs(silence.sinceMs), polledRequests: silence.polledRequests };
}

function refusalState(store: Store): StatusReport['webhookRefusals'] {
  const warning = storedRefusalWarning(store.state);
  return warning === undefined
    ? null
    : { since: isoFromMs(warning.sinceMs), refused: warning.refused, warning: refusalWarningText(warning) };
}

function killSwitchState(limits: RiskLimits): StatusReport['killSwitch'] {
  if (limits.killSwitch) return { on: true, why: 'risk.kill_switch is true' };
  if (limits.killSwitchFile !== undefined && existsSync(limits.killSwitchFile)) {
    return { on: true, why: `file ${limits.killSwitchFile} exists` };
  }
  return { on: false, why: null };
}

function decisionsToday(store: Store, nowMs: number): StatusReport['decisionsToday'] {
  const { startMs, endMs } = utcDayBounds(nowMs);
  return store.decisions.countByAction({ sinceMs: startMs, untilMs: endMs });
}
