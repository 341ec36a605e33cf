/**
 * FAST PATH of src/backtest/run-backtest.ts:runBacktest; equivalence: test/backtest/tune-column-path.test.ts; change both or neither.
 *
 * One training trial over columns: the backtest's replay (src/backtest/run-backtest.ts) cut down
 * to what a trial's score and figures read, for a strategy trial-columns.ts can represent. The
 * accounting is run-backtest's, step for step and in the same order, so every figure is the one
 * a full backtest gives (test/backtest/tune-column-path.test.ts compares them):
 *
 * - requests in replay order, each after the cash flows due by its time;
 * - an offer when the request reaches pricing and is priced, and the guard (checkOffer, over the
 *   same SimLedger) allows it; it is placed, then decided (or expires) after the market's delay;
 * - a won offer is funded only when the balance exceeds its total; its instalments, loss and
 *   recovery are scheduled in that order, as run-backtest schedules them;
 * - equity (starting balance + interest + recoveries − losses) is checked for a new peak or a
 *   deeper drawdown after every cash flow. (After a request nothing it reads has changed, and
 *   the column path buys no paid data, so the data spend is always 0.)
 *
 * What only a report needs (segments, the daily series, decisions, capital utilization) is not kept.
 */
import { checkOffer, UNCAPPED_RISK_LIMITS, type RiskLimits } from '../../risk/index.js';
import type { FeatureSource } from '../../engine/features/feature-source.js';
import type { ExposureKey } from '../sim-ledger.js';
import { SimLedger } from '../sim-ledger.js';
import type { MarketAssumptions } from '../market-model.js';
import type { PricedRequests } from './price-book.js';
import { reachesPricing, type TrialColumns, type TrialThresholds } from './trial-columns.js';
import type { TypedEventHeap } from './typed-event-heap.js';
import { DAY_MS } from '../../clock/time-constants.js';

const YEAR_MS = 365.25 * DAY_MS;

// An event is one integer: the request's index × 256 + its kind (an instalment's kind is 4 + its number).
const KIND_BITS = 256;
const EXPIRE = 0;
const DECIDE = 1;
const LOSS = 2;
const RECOVERY = 3;
const INSTALMENT = 4;
/** The most instalments a loan may have on the column path. */
export const MAX_COLUMN_INSTALMENTS = KIND_BITS - INSTALMENT;

/** What a trial's score and report read of a backtest. */
export interface ColumnFigures {
  netAnnualizedReturn: number;
  maxDrawdown: number;
  defaultRate: number;
  offers: number;
  funded: number;
  netCents: number;
  years: number;
}

export interface ColumnReplaySettings {
  startingBalanceCents: number;
  limits: RiskLimits | undefined;
  market: MarketAssumptions;
  automateFund: boolean;
  /** Each request's exposure key, built once per period. */
  keys: readonly ExposureKey[];
}

export function replayOverColumns(
  columns: TrialColumns,
  priced: PricedRequests,
  thresholds: TrialThresholds,
  settings: ColumnReplaySettings,
  heap: TypedEventHeap,
): ColumnFigures {
  const { entries } = columns.recording;
  const { market, automateFund, keys } = settings;
  const limits = settings.limits ?? UNCAPPED_RISK_LIMITS;
  const start = settings.startingBalanceCents;
  const reserves = automateFund || limits.reserveManualOffers;
  const ledger = new SimLedger(start);
  let interest = 0;
  let losses = 0;
  let recoveries = 0;
  let defaults = 0;
  let offers = 0;
  let funded = 0;
  let peak = start;
  let maxDrawdown = 0;
  const startMs = entries[0]?.seenMs ?? Number.NaN;
  let now = startMs;
  heap.clear();

  const settle = (i: number): void => {
    const total = (entries[i] as (typeof entries)[number]).totalCents;
    const key = keys[i] as ExposureKey;
    ledger.offerClosed(total, reserves, key);
    if (!priced.verdict(i).won) return;
    // Marketplace 4.3: funding needs a balance that EXCEEDS the total.
    if (ledger.balanceCents <= total) return;
    const loan = priced.loan(i, now);
    ledger.loanFunded(total, key);
    funded += 1;
    const base = i * KIND_BITS;
    for (let k = 0; k < loan.instalmentMs.length; k += 1) heap.add(loan.instalmentMs[k] as number, base + INSTALMENT + k);
    if (loan.flows.lossMonth !== null) heap.add(loan.lossMs, base + LOSS);
    if (loan.flows.recoveryMonth !== null) heap.add(loan.recoveryMs, base + RECOVERY);
  };

  const handle = (code: number): void => {
    const i = Math.floor(code / KIND_BITS);
    const kind = code - i * KIND_BITS;
    const key = keys[i] as ExposureKey;
    if (kind === EXPIRE) {
      ledger.offerClosed((entries[i] as (typeof entries)[number]).totalCents, reserves, key);
      return;
    }
    if (kind === DECIDE) {
      settle(i);
      return;
    }
    const { flows } = priced.loan(i, Number.NaN);
    if (kind === LOSS) {
      ledger.principalLost(flows.lossCents, key);
      losses += flows.lossCents;
      defaults += 1;
    } else if (kind === RECOVERY) {
      ledger.recoveryReceived(flows.recoveryCents);
      recoveries += flows.recoveryCents;
    } else {
      const instalment = flows.instalments[kind - INSTALMENT];
      if (!instalment) throw new RangeError(`no instalment ${kind - INSTALMENT} for request ${i}`);
      ledger.instalmentReceived(instalment.amountCents, instalment.principalCents, key);
      interest += instalment.interestCents;
    }
    // run-backtest's afterChange: a new equity peak, or maybe a deeper drawdown.
    const equity = start + (interest + recoveries - losses);
    if (equity > peak) peak = equity;
    else if (peak > 0) maxDrawdown = Math.max(maxDrawdown, (peak - equity) / peak);
  };

  const advanceTo = (ms: number): void => {
    while (heap.size > 0 && heap.peekTime() <= ms) {
      const atMs = heap.peekTime();
      const code = heap.peekCode();
      heap.pop();
      if (atMs > now) now = atMs;
      handle(code);
    }
    if (ms > now && Number.isFinite(ms)) now = ms;
  };

  for (let i = 0; i < entries.length; i += 1) {
    const entry = entries[i] as (typeof entries)[number];
    advanceTo(entry.seenMs);
    if (!reachesPricing(columns, thresholds, i)) continue;
    // The guard's balance rule (balance-rule.ts) does not depend on the rate: asked before the
    // price, as a trial is mostly short of cash. Skipped by pricing or refused by any guard rule,
    // the request gets no offer either way (which reason does not change a figure), so nothing
    // is priced, and no refusal text built, for a request the balance cannot take.
    if (reserves && !(ledger.balanceCents - ledger.reservedCents - limits.minCashReserveCents > entry.totalCents)) continue;
    const rate = priced.rate(i);
    if (Number.isNaN(rate)) continue;
    if (!checkOffer({ request: (columns.sources[i] as FeatureSource).request, rate, automateFund }, ledger.snapshot(now), limits).allowed)
      continue;
    const key = keys[i] as ExposureKey;
    ledger.offerPlaced(now, entry.totalCents, reserves, key);
    offers += 1;
    // A pending offer holds (reservation, exposure) as long as the daemon's store counts it.
    const expiryAt = now + limits.offerExpiryMs + 1;
    if (!market.settle || market.decisionDelayMs > limits.offerExpiryMs) heap.add(expiryAt, i * KIND_BITS + EXPIRE);
    else heap.add(now + market.decisionDelayMs, i * KIND_BITS + DECIDE);
  }
  advanceTo(Number.POSITIVE_INFINITY);

  const spanMs = Number.isFinite(startMs) ? now - startMs : 0;
  const years = spanMs / YEAR_MS;
  const net = interest + recoveries - losses;
  return {
    netAnnualizedReturn: years > 0 && start > 0 ? net / start / years : 0,
    maxDrawdown,
    defaultRate: funded === 0 ? 0 : defaults / funded,
    offers,
    funded,
    netCents: net,
    years,
  };
}
