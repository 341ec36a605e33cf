/** What a backtest returns: the report's figures, the series for charts, and each decision. */
import type { DecisionJson } from '../domain/decision-json.js';
import type { GuardRefusalCode } from '../risk/index.js';
import type { MarketSource } from '../engine/compiled-strategy.js';
import type { StrategyCalibration } from './calibration/strategy-calibration.js';
import type { MarketAssumptions } from './market-model.js';
import type { OfferFate, OfferStats } from './offer-stats.js';
import type { SegmentDimension, SegmentRow } from './segment-stats.js';

/**
 * One request's decision in the one decision shape (docs/decision-shape.md), comparable with the
 * daemon's decision rows (parity): `decided_at` is when the request was seen, `rate` the decided
 * rate (also on a guard refusal, as the daemon records it), `dry_run` always true (nothing is
 * sent), and the market model's verdict beside it.
 */
export interface BacktestDecision extends DecisionJson {
  /**
   * What the market model did with an offer: 'declined' is a borrower who walked away from our
   * rate (no cheaper competitor), 'outbid' one who took, or would take, a cheaper competitor.
   */
  market?: OfferFate;
  /** The chance the market model gave the offer of being accepted (settled offers only). */
  accept_probability?: number;
  /** Offers of a strategy that prices: the annual return it expected at the offered rate, defaults included (the drift report). */
  expected_return?: number;
}

export interface StrategyRun {
  name: string;
  version: string;
  contentHash: string;
  file: string;
  params: Record<string, number>;
  /** Where an expected-profit strategy's market response came from ('default': the unfitted prior). */
  marketSource?: MarketSource;
}

export interface BacktestSummary {
  requests: number;
  offers: number;
  funded: number;
  deployedCents: number;
  interestCents: number;
  /** Principal written off, at each defaulter's first missed instalment. */
  lossCents: number;
  /** What defaulters still paid after the write-off (recoveryDelayMonths later). */
  recoveryCents: number;
  dataSpendCents: number;
  /** The part of dataSpendCents that is flat-priced providers' monthly subscriptions. */
  subscriptionCents: number;
  /** interest + recoveries − losses − data spend. */
  netCents: number;
  defaultRate: number;
  /** Guard refusals by code. */
  guardRefusals: Partial<Record<GuardRefusalCode, number>>;
  /**
   * Requests the caps refused (open exposure, per borrower, per risk level, per day) and their
   * total: the guard checks the cash first, so the free cash could have funded each of them.
   * Absent in results written before it was kept.
   */
  capRefusals?: { requests: number; amountCents: number };
  /** Won offers the balance could not fund when accepted. */
  fundingFailures: number;
  /**
   * Offers judged without an outcome (market-model.ts lacksOutcome: no outcome, or unfunded
   * without if_funded): what the recording could not say. Settled offers only.
   */
  unjudgedOffers: number;
  /** unjudgedOffers / offers (0 without offers). */
  unjudgedShare: number;
  /** Average share of the money that was lent out (deployed / (deployed + cash)). */
  capitalUtilization: number;
  /** Time-average cash balance. */
  averageIdleCents: number;
  /** Time-weighted share of the money (cash + principal lent) that was free cash, lent to no one and held by no offer (idle-cash-meter.ts). */
  idleShare: number;
  /** Time-weighted share of the money held by open offers. */
  reservedShare: number;
  /** idleShare from the first request to the last only (idle-cash-meter.ts: the tail after it has nothing to lend to). */
  idleShareWhileRequests: number;
  /** net / starting balance, per year of the simulated period: the headline (idle cash included). */
  netAnnualizedReturn: number;
  /** net / capital-years: the yearly return on the money actually lent. */
  returnOnDeployed: number;
  /** Largest fall of equity from a peak, as a share of the peak. */
  maxDrawdown: number;
  largestExposureCents: number;
  largestBorrowerExposureCents: number;
  finalBalanceCents: number;
  /** Principal of loans still running when the recording ends (`current`). */
  openCents: number;
}

/** One funded loan and what became of it by the end of the replay (the report's list of loans). */
export interface BacktestLoan {
  loanRequestId: number;
  fundedAt: string;
  strategy: string;
  /** The request's risk level (borrower_card_color). */
  riskLevel: number;
  amountCents: number;
  /** The offered rate the loan runs at. */
  rate: number;
  /** defaulted: principal written off; open: still `current` where the recording ends. */
  outcome: 'repaid' | 'defaulted' | 'open';
  /** interest + recoveries − losses of this loan, in cents (data spend is per request, not here). */
  profitCents: number;
  /**
   * A loan priced under a learned default level (score.calibration method learned): the default
   * probability it was priced with (learned so far) and the score's before the learned calibration.
   */
  calibration?: { predictedDefault: number; scoreDefault: number };
}

/** One point of the daily series behind the charts. */
export interface SeriesPoint {
  at: string;
  netCents: number;
  deployedCents: number;
  /** Cash: the balance, including what open offers hold (reservedCents). */
  idleCents: number;
  /** The part of idleCents held by open offers (absent in results written before it was kept). */
  reservedCents?: number;
}

export interface BacktestResult {
  strategies: StrategyRun[];
  period: { from: string | null; to: string | null; end: string | null; requests: number; years: number };
  settings: { startingBalanceCents: number; market: MarketAssumptions };
  summary: BacktestSummary;
  segments: Record<SegmentDimension, SegmentRow[]>;
  /** Competition and adverse selection per strategy (offer-stats.ts): one row each, and "all" for several. */
  offerStats: OfferStats[];
  series: SeriesPoint[];
  /** Every funded loan, in funding order. */
  loans: BacktestLoan[];
  /** Every offered rate (guard passed), for the distribution chart. */
  offeredRates: number[];
  /** Per request, in replay order; empty unless asked for. */
  decisions: BacktestDecision[];
  /**
   * Per request, in replay order: its contribution to the net (interest + recoveries − losses − data spend),
   * in cents; they add up to summary.netCents. Empty unless asked for (recordContributions).
   */
  requestNetCents: number[];
  /**
   * Each strategy's probability against what happened on the recording's resolved requests it
   * scores (calibration/strategy-calibration.ts); set by the backtest command, absent elsewhere.
   */
  calibration?: StrategyCalibration[];
}
