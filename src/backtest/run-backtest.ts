/**
 * The backtest: replays recorded requests in `seen_at` order on simulated time through the same
 * code the daemon runs (the engine's decide step: enrich ⇄ decide, then checkOffer, the risk
 * guard) with the recording as data source and a simulated ledger instead of the service, and lets the market model
 * (market-model.ts) decide what became of each offer. Cash flows of won loans are scheduled
 * events (instalments, the write-off at a defaulter's first missed instalment, its later
 * recovery), so repaid money is back in the balance for later offers and equity sees a loss when
 * it happens. Every cent is counted once: net = interest + recoveries − losses − data spend.
 */
import { decisionJson } from '../domain/decision-json.js';
import { reasonText } from '../domain/decision-reason.js';
import { decideSync, type CompiledStrategy, type DecideContext, type GuardQuestion, type SpendLedger } from '../engine/index.js';
import { RepayFates, type RepayFate } from './repay-fates.js';
import {
  calibrationOfferOf,
  curseOfferOf,
  learnedOfferOf,
  MarketLearning,
  type CurseOffer,
  type LearnedOffer,
} from '../engine/market/index.js';
import { RecentDemand } from '../engine/pricing/cash-hurdle.js';
import { checkOffer, UNCAPPED_RISK_LIMITS, type GuardRefusalCode, type GuardResult, type RiskLimits } from '../risk/index.js';
import type { BacktestDecision, BacktestLoan, BacktestResult, SeriesPoint } from './backtest-result.js';
import { EventQueue } from '../clock/event-queue.js';
import { addMonthsUtc } from '../clock/utc-month.js';
import { loanCashFlows, type Instalment } from '../math/index.js';
import {
  DEFAULT_MARKET,
  defaultProbabilityOf,
  judgeOffer,
  lacksOutcome,
  recordedCompetition,
  type MarketAssumptions,
  type MarketVerdict,
} from './market-model.js';
import { OfferTally, populationDefault, type OfferFate } from './offer-stats.js';
import { judgedByRecordedAcceptance, type ReservationSource } from './recorded-acceptance.js';
import {
  isPrepared,
  prepareRecording,
  readForReplay,
  type PreparedRecording,
  type ReplayEntry,
  type ReplayRead,
} from './prepared-recording.js';
import { ReplayDataSource, simSpendLedger } from './recording-data.js';
import type { LineWithoutData, RecordingLine } from '../recording/index.js';
import { SegmentTable, segmentRow, emptyCounts, type SegmentCounts } from './segment-stats.js';
import { SimLedger, type ExposureKey } from './sim-ledger.js';
import { IdleCashMeter } from './idle-cash-meter.js';
import { DAY_MS } from '../clock/time-constants.js';

export interface BacktestOptions {
  /** Cash at the start, in cents. */
  startingBalanceCents: number;
  limits?: RiskLimits | undefined;
  market?: Partial<MarketAssumptions> | undefined;
  /** Keep every request's decision in the result (for parity checks and `--json`). */
  recordDecisions?: boolean | undefined;
  /**
   * Keep each request's contribution to the net (interest + recoveries − losses − data spend, in cents) in
   * `requestNetCents`, for paired comparisons of two runs over the same requests (tune).
   */
  recordContributions?: boolean | undefined;
  /**
   * A borrower world (borrower-worlds.ts) that makes up a reservation rate for lines without one,
   * so they are judged by recorded acceptance instead of the curve; absent: the curve.
   */
  world?: ReservationSource | undefined;
  /**
   * The learners strategies with `pricing.learning` price with; each fate is fed to them as the
   * replay settles it. Absent: a fresh one, starting from each strategy's prior. Pass one to
   * watch what was learned, or to carry it across runs.
   */
  learning?: MarketLearning | undefined;
  /** Called with each fate the learners are fed (after the update): the market-learning bench's window onto convergence. */
  onLearned?: ((offer: LearnedOffer, accepted: boolean) => void) | undefined;
  /** Called with each funded loan's fate as it is fed to a winner's-curse learner (at fate.atMs of the replay). */
  onRepayLearned?: ((fate: RepayFate) => void) | undefined;
  /**
   * Called with each request after it is decided, as the replay read it: a pass over the recording
   * that rides on the replay's reading instead of reading every line again (the backtest command's
   * calibration section). runDraws hands it to the first draw only.
   */
  onRead?: ((entry: ReplayEntry, read: ReplayRead) => void) | undefined;
}

const YEAR_MS = 365.25 * DAY_MS;

interface PendingOffer {
  entry: ReplayEntry;
  /**
   * The request's line, read once at its decision: a compact recording builds `entry.line` anew
   * at each read (src/backtest/compact/compact-recording.ts), so the offer keeps the one it was
   * decided on until its fate (without the recorded data, which only the decision reads).
   */
  line: LineWithoutData;
  /** The request's index in replay order. */
  index: number;
  rate: number;
  strategy: string;
  automateFund: boolean;
  key: ExposureKey;
  segments: SegmentCounts[];
  decision: BacktestDecision | undefined;
  /** What the offer teaches its strategy's learner once its fate is known (learning strategies only). */
  learned: LearnedOffer | undefined;
  /** The strategy's default probability for the borrower (0 without a score), for a borrower-dependent take-up curve. */
  defaultProbability: number;
  /** What the offer, if funded, teaches its strategy's winner's-curse learner (`pricing.winners_curse`). */
  curse?: CurseOffer | undefined;
  /** What the offer, if funded, teaches its strategy's learned calibration (`score.calibration` method learned). */
  calibration?: { strategy: string; scoreDefault: number } | undefined;
}

interface OpenLoan {
  index: number;
  key: ExposureKey;
  segments: SegmentCounts[];
  /** The learned calibration its instalments and default teach, by the loan's key there. */
  calibration?: { strategy: string; loanKey: string } | undefined;
}

type SimEvent =
  | { kind: 'decide'; offer: PendingOffer; verdict: MarketVerdict }
  | { kind: 'expire'; offer: PendingOffer }
  | { kind: 'instalment'; loan: OpenLoan; instalment: Instalment }
  | { kind: 'loss'; loan: OpenLoan; lossCents: number; month: number }
  | { kind: 'recovery'; loan: OpenLoan; recoveryCents: number };

/** The guard's caps: a refusal for one of these is money the caps held back, not money the market did not ask for. */
const CAP_CODES: ReadonlySet<GuardRefusalCode> = new Set([
  'max_open_exposure',
  'max_per_borrower',
  'max_share_by_risk_level',
  'max_offers_per_day',
  'max_amount_per_day',
]);

/** Replays `recording` with `strategies` (evaluated together, by priority, as the daemon does). */
export function runBacktest(
  recording: readonly RecordingLine[] | PreparedRecording,
  strategies: readonly CompiledStrategy[],
  options: BacktestOptions,
): BacktestResult {
  const prepared = isPrepared(recording) ? recording : prepareRecording(recording);
  return runBacktestsTogether(prepared, [{ strategies, options }])[0] as BacktestResult;
}

/** One backtest of runBacktestsTogether. */
export interface BacktestRun {
  strategies: readonly CompiledStrategy[];
  options: BacktestOptions;
}

/**
 * runBacktest once per run, the replays in lockstep: each request is read once and decided by
 * every run in turn, so the runs share its reading (a compact recording builds each line anew
 * at each read) and the strategies' feature values for it (their feature tables keep the last
 * request's). Each replay keeps its own state and sees the requests in the same order as alone,
 * so each result is the one runBacktest gives; all of them are held until the end (a replay's
 * state is its loans and offers, small beside the recording).
 */
export function runBacktestsTogether(recording: PreparedRecording, runs: readonly BacktestRun[]): BacktestResult[] {
  const replays = runs.map(({ strategies, options }) => new Replay(strategies, options));
  for (const replay of replays) replay.begin(recording);
  recording.entries.forEach((entry, index) => {
    const read = readForReplay(entry);
    for (const replay of replays) replay.step(entry, index, read);
  });
  return replays.map((replay) => replay.end(recording));
}

class Replay {
  private readonly limits: RiskLimits;
  private readonly market: MarketAssumptions;
  private readonly ledger: SimLedger;
  private readonly spend: SpendLedger;
  private readonly context: DecideContext;
  private readonly source = new ReplayDataSource();
  /** Expected demand for cash, for strategies whose hurdle follows cash (the daemon keeps its own). */
  private readonly demand = new RecentDemand();
  private readonly followsCash: boolean;
  private readonly events = new EventQueue<SimEvent>();
  private readonly segments = new SegmentTable();
  private readonly total = emptyCounts();
  private readonly refusals: Partial<Record<GuardRefusalCode, number>> = {};
  /** Requests a money or count cap refused while the cash could fund them (the balance rule comes first). */
  private readonly capRefusals = { requests: 0, amountCents: 0 };
  private readonly decisions: BacktestDecision[] = [];
  private readonly loans: BacktestLoan[] = [];
  private readonly offeredRates: number[] = [];
  private readonly series: SeriesPoint[] = [];
  private seriesDayMs = Number.NaN;
  private readonly requestNet: number[] = [];
  private readonly tally: OfferTally;
  private fundingFailures = 0;
  private unjudgedOffers = 0;
  private openCents = 0;
  private nowMs = Number.NaN;
  /** Funded loans' fates for winner's-curse learners, told once the replay reaches their term's end. */
  private readonly repayFates = new RepayFates();
  private startMs = Number.NaN;
  private idleIntegral = 0;
  private deployedIntegral = 0;
  private readonly idleCash = new IdleCashMeter();
  private peakEquity: number;
  private maxDrawdown = 0;

  constructor(
    private readonly strategies: readonly CompiledStrategy[],
    private readonly options: BacktestOptions,
  ) {
    this.limits = options.limits ?? UNCAPPED_RISK_LIMITS;
    this.market = { ...DEFAULT_MARKET, ...options.market };
    this.ledger = new SimLedger(options.startingBalanceCents);
    this.spend = simSpendLedger(this.ledger);
    this.context = { strategies, nowMs: Number.NaN, ledger: this.spend, learning: options.learning ?? new MarketLearning() };
    this.followsCash = strategies.some((strategy) => strategy.followsCash === true);
    this.peakEquity = options.startingBalanceCents;
    this.tally = new OfferTally(strategies.map((s) => s.name));
  }

  begin(recording: PreparedRecording): void {
    const first = recording.entries[0];
    if (first) this.startMs = this.nowMs = first.seenMs;
    if (this.options.recordContributions) this.requestNet.length = recording.entries.length;
    this.requestNet.fill(0);
  }

  /** Request `index` of the replay, read (readForReplay) by the caller. */
  step(entry: ReplayEntry, index: number, read: ReplayRead): void {
    this.advanceTo(entry.seenMs);
    const spentBefore = this.ledger.dataSpendCents;
    this.decide(entry, index, read);
    this.contribute(index, spentBefore - this.ledger.dataSpendCents);
    this.afterChange();
  }

  end(recording: PreparedRecording): BacktestResult {
    this.idleCash.requestsEnded();
    this.advanceTo(Number.POSITIVE_INFINITY);
    return this.result(recording);
  }

  /** Runs every scheduled event up to `ms`, moving the clock (and the time integrals) along. */
  private advanceTo(ms: number): void {
    while (this.events.peekTime() <= ms) {
      const next = this.events.pop();
      if (!next) break;
      this.moveClock(next.atMs);
      this.handle(next.event);
      this.afterChange();
    }
    if (Number.isFinite(ms)) this.moveClock(ms);
    for (const fate of this.repayFates.takeUntil(ms)) {
      if (this.context.learning?.curse.observe(fate.curse.strategy, fate.curse.observation, fate.repaid) === true)
        this.options.onRepayLearned?.(fate);
    }
    // The learned calibrations refit on what the instalments and defaults so far taught them (at most once a day).
    if (Number.isFinite(this.nowMs)) this.context.learning?.calibration.refitDue(this.nowMs);
  }

  private moveClock(ms: number): void {
    if (!(ms > this.nowMs)) return;
    const dt = ms - this.nowMs;
    this.idleIntegral += this.ledger.balanceCents * dt;
    this.deployedIntegral += this.ledger.deployedCents * dt;
    this.idleCash.accrue(this.ledger, dt);
    this.nowMs = ms;
  }

  /** Adds `cents` to request `index`'s contribution (when contributions are kept). */
  private contribute(index: number, cents: number): void {
    if (this.options.recordContributions) this.requestNet[index] = (this.requestNet[index] ?? 0) + cents;
  }

  private decide(entry: ReplayEntry, index: number, read: ReplayRead): void {
    // The recorded data is read through the data source alone, so a compact recording builds it
    // only for requests that get as far as buying it.
    const { line, data } = read;
    const request = line.loan_request;
    // One context, source and guard for the whole replay, pointed at this request: nothing
    // holds them past the (synchronous) step.
    this.context.nowMs = this.nowMs;
    if (this.followsCash) this.context.cash = this.demand.position(this.nowMs, this.freeCents());
    this.source.line = data;
    const outcome = decideSync(request, this.context, this.source, this.guard);
    this.options.onRead?.(entry, read);
    const { decision, reasons } = outcome;
    // What the strategies would offer on, guard or not, weighted by its modelled take-up: the cash it would draw.
    if (decision.action === 'offer') this.demand.add(this.nowMs, entry.totalCents * (decision.modelled?.acceptProbability ?? 1));
    const segments = this.segments.refs(
      String(request.borrower_card_color),
      entry.scoreBand,
      String(request.loan_terms),
      decision.strategy.name,
    );
    for (const counts of segments) counts.requests += 1;
    this.total.requests += 1;
    const { action } = outcome;
    const guard: GuardRefusalCode | undefined = outcome.guard?.allowed === false ? outcome.guard.code : undefined;
    if (guard !== undefined) {
      this.refusals[guard] = (this.refusals[guard] ?? 0) + 1;
      if (CAP_CODES.has(guard)) {
        this.capRefusals.requests += 1;
        this.capRefusals.amountCents += entry.totalCents;
      }
    }
    const rate = decision.rate;
    let record: BacktestDecision | undefined;
    if (this.options.recordDecisions) {
      record = decisionJson({
        loanRequestId: request.id,
        decidedAt: entry.seenAt,
        action,
        rate: rate ?? null,
        probability: decision.probability ?? null,
        strategy: decision.strategy.name,
        source: null,
        // Text where it leaves: the decision shape's reasons are the stored machine texts.
        reasons: reasons.map(reasonText),
        guardCode: guard ?? null,
        placement: null,
        dryRun: true,
      });
      if (action === 'offer' && decision.expectedReturn !== undefined) record.expected_return = decision.expectedReturn;
      this.decisions.push(record);
    }
    if (action === 'offer' && rate !== undefined) {
      this.placeOffer({
        entry,
        line,
        index,
        rate,
        strategy: decision.strategy.name,
        automateFund: decision.automateFund,
        key: { borrowerId: request.borrower.id, riskLevel: request.borrower_card_color },
        segments,
        decision: record,
        learned: learnedOfferOf(decision),
        defaultProbability: defaultProbabilityOf(decision.probability),
        curse: curseOfferOf(decision),
        calibration: calibrationOfferOf(decision),
      });
    }
  }

  /** What the guard's balance rule would let new offers use now: balance less pending offers and the reserve. */
  private freeCents(): number {
    const snapshot = this.ledger.snapshot(this.nowMs);
    return snapshot.balanceCents - snapshot.reservedCents - this.limits.minCashReserveCents;
  }

  /** The guard, asked about an offer at the replay's current time. */
  private readonly guard = (offer: GuardQuestion): GuardResult => checkOffer(offer, this.ledger.snapshot(this.nowMs), this.limits);

  /** Whether a pending offer holds its total back, as the daemon's store counts it. */
  private reserves(offer: PendingOffer): boolean {
    return offer.automateFund || this.limits.reserveManualOffers;
  }

  private placeOffer(offer: PendingOffer): void {
    this.ledger.offerPlaced(this.nowMs, offer.entry.totalCents, this.reserves(offer), offer.key);
    this.offeredRates.push(offer.rate);
    for (const counts of offer.segments) {
      counts.offers += 1;
      counts.offeredRateSum += offer.rate;
    }
    this.total.offers += 1;
    this.total.offeredRateSum += offer.rate;
    // A pending offer holds (reservation, exposure) as long as the daemon's store counts it:
    // created within the expiry window, inclusive.
    const expiryAt = this.nowMs + this.limits.offerExpiryMs + 1;
    if (!this.market.settle) {
      this.events.add(expiryAt, { kind: 'expire', offer });
      return;
    }
    const verdict = judgeOffer(offer.line, offer.rate, this.market, this.options.world, offer.defaultProbability);
    if (offer.decision) offer.decision.accept_probability = verdict.probability;
    if (lacksOutcome(offer.line)) this.unjudgedOffers += 1;
    if (this.market.decisionDelayMs > this.limits.offerExpiryMs) this.events.add(expiryAt, { kind: 'expire', offer });
    else this.events.add(this.nowMs + this.market.decisionDelayMs, { kind: 'decide', offer, verdict });
  }

  private handle(event: SimEvent): void {
    switch (event.kind) {
      case 'expire':
        this.ledger.offerClosed(event.offer.entry.totalCents, this.reserves(event.offer), event.offer.key);
        this.markFate(event.offer, 'expired');
        return;
      case 'decide':
        this.settle(event.offer, event.verdict);
        return;
      case 'instalment': {
        const { instalment, loan } = event;
        this.ledger.instalmentReceived(instalment.amountCents, instalment.principalCents, loan.key);
        for (const counts of loan.segments) counts.interestCents += instalment.interestCents;
        this.total.interestCents += instalment.interestCents;
        this.contribute(loan.index, instalment.interestCents);
        this.teachCalibration(loan, instalment.month, false);
        return;
      }
      case 'loss':
        this.teachCalibration(event.loan, event.month, true);
        this.ledger.principalLost(event.lossCents, event.loan.key);
        for (const counts of event.loan.segments) {
          counts.lossCents += event.lossCents;
          counts.defaults += 1;
        }
        this.total.lossCents += event.lossCents;
        this.total.defaults += 1;
        this.contribute(event.loan.index, -event.lossCents);
        return;
      case 'recovery':
        this.ledger.recoveryReceived(event.recoveryCents);
        for (const counts of event.loan.segments) counts.recoveryCents += event.recoveryCents;
        this.total.recoveryCents += event.recoveryCents;
        this.contribute(event.loan.index, event.recoveryCents);
        return;
    }
  }

  /** A funded loan's instalment paid (or its default) as the learned calibration's evidence, at the replay's time. */
  private teachCalibration(loan: OpenLoan, month: number, defaulted: boolean): void {
    const taught = loan.calibration;
    if (taught === undefined) return;
    const learner = this.context.learning?.calibration.existing(taught.strategy);
    if (defaulted) learner?.defaulted(taught.loanKey, month);
    else learner?.paid(taught.loanKey, month);
  }

  /** What became of an offer: on its decision (when kept) and in the competition tally. */
  private markFate(offer: PendingOffer, fate: OfferFate): void {
    if (offer.decision) offer.decision.market = fate;
    const { line } = offer;
    const competition = recordedCompetition(line.outcome, this.market.unknownCompetition);
    this.tally.add(
      offer.strategy,
      line,
      fate,
      competition === 'lose' || competition.kind !== 'none',
      judgedByRecordedAcceptance(line, this.options.world),
    );
    this.learn(offer, fate);
  }

  /**
   * Feeds a fate to the offer's learner, as the daemon does when it learns one: the borrower took
   * it (won, or taken and not fundable) or not (declined, outbid, expired). A fate the recording
   * cannot tell (unfunded without a recorded answer, no outcome) teaches nothing, nor does any
   * fate of a replay that does not settle (a dry run's offers reach no borrower; the daemon
   * learns nothing from them either).
   */
  private learn(offer: PendingOffer, fate: OfferFate): void {
    const { learned } = offer;
    if (learned === undefined || !this.market.settle || fate === 'unfunded' || fate === 'no_outcome') return;
    const accepted = fate === 'won' || fate === 'funding_failed';
    if (this.context.learning?.observe(learned.strategy, learned.observation, accepted) === true)
      this.options.onLearned?.(learned, accepted);
  }

  private settle(offer: PendingOffer, verdict: MarketVerdict): void {
    const { entry, key, line } = offer;
    this.ledger.offerClosed(entry.totalCents, this.reserves(offer), key);
    if (!verdict.won) {
      this.markFate(offer, verdict.reason);
      return;
    }
    // Marketplace 4.3: funding needs a balance that EXCEEDS the total.
    if (this.ledger.balanceCents <= entry.totalCents) {
      this.fundingFailures += 1;
      this.markFate(offer, 'funding_failed');
      return;
    }
    this.markFate(offer, 'won');
    const flows = loanCashFlows(entry.totalCents, offer.rate, line.loan_request.loan_terms, verdict.plan, this.market.recoveryDelayMonths);
    this.ledger.loanFunded(entry.totalCents, key);
    for (const counts of [...offer.segments, this.total]) {
      counts.funded += 1;
      counts.deployedCents += entry.totalCents;
      counts.capitalCentMonths += flows.capitalCentMonths;
    }
    const loan: OpenLoan = { index: offer.index, key, segments: offer.segments };
    const fundedMs = this.nowMs;
    if (offer.calibration !== undefined) {
      const loanKey = String(line.loan_request.id);
      this.context.learning?.calibration
        .existing(offer.calibration.strategy)
        ?.funded(loanKey, offer.calibration.scoreDefault, line.loan_request.loan_terms);
      loan.calibration = { strategy: offer.calibration.strategy, loanKey };
    }
    for (const instalment of flows.instalments)
      this.events.add(addMonthsUtc(fundedMs, instalment.month), { kind: 'instalment', loan, instalment });
    if (flows.lossMonth !== null)
      this.events.add(addMonthsUtc(fundedMs, flows.lossMonth), { kind: 'loss', loan, lossCents: flows.lossCents, month: flows.lossMonth });
    if (flows.recoveryMonth !== null)
      this.events.add(addMonthsUtc(fundedMs, flows.recoveryMonth), { kind: 'recovery', loan, recoveryCents: flows.recoveryCents });
    // The winner's curse learns whether the loan repaid once its whole term has passed, defaulted
    // or not: feeding a default as soon as it happens would teach only early defaults for months
    // (the repaid loans' fates come last), a bias towards default. A loan the recording leaves
    // open teaches nothing.
    if (offer.curse !== undefined && flows.openCents === 0) {
      const term = line.loan_request.loan_terms;
      const defaultMs = flows.lossMonth === null ? null : addMonthsUtc(fundedMs, flows.lossMonth);
      this.repayFates.add({ atMs: addMonthsUtc(fundedMs, term), curse: offer.curse, repaid: defaultMs === null, fundedMs, defaultMs });
    }
    this.openCents += flows.openCents;
    // Every scheduled flow runs before the replay ends, so the loan's fate is known now.
    const interest = flows.instalments.reduce((sum, instalment) => sum + instalment.interestCents, 0);
    this.loans.push({
      loanRequestId: line.loan_request.id,
      fundedAt: new Date(fundedMs).toISOString(),
      strategy: offer.strategy,
      riskLevel: key.riskLevel,
      amountCents: entry.totalCents,
      rate: offer.rate,
      outcome: flows.lossMonth !== null ? 'defaulted' : flows.openCents > 0 ? 'open' : 'repaid',
      profitCents: interest + flows.recoveryCents - flows.lossCents,
      ...(offer.calibration === undefined
        ? {}
        : { calibration: { predictedDefault: offer.defaultProbability, scoreDefault: offer.calibration.scoreDefault } }),
    });
  }

  /** Tracks the equity peak and drawdown, and the daily series, after anything changed. */
  private afterChange(): void {
    const net = this.total.interestCents + this.total.recoveryCents - this.total.lossCents - this.ledger.dataSpendCents;
    const equity = this.options.startingBalanceCents + net;
    if (equity > this.peakEquity) this.peakEquity = equity;
    else if (this.peakEquity > 0) this.maxDrawdown = Math.max(this.maxDrawdown, (this.peakEquity - equity) / this.peakEquity);
    // One point a day, the day's last state; the day's text is only made when a new day starts
    // (this runs after every request and event).
    const dayMs = this.nowMs - (this.nowMs % DAY_MS);
    const last = this.series.at(-1);
    if (last !== undefined && dayMs === this.seriesDayMs) {
      last.netCents = net;
      last.deployedCents = this.ledger.deployedCents;
      last.idleCents = this.ledger.balanceCents;
      last.reservedCents = this.ledger.reservedCents;
      return;
    }
    this.seriesDayMs = dayMs;
    this.series.push({
      at: new Date(dayMs).toISOString(),
      netCents: net,
      deployedCents: this.ledger.deployedCents,
      idleCents: this.ledger.balanceCents,
      reservedCents: this.ledger.reservedCents,
    });
  }

  private result(recording: PreparedRecording): BacktestResult {
    const { ledger, total } = this;
    const spanMs = Number.isFinite(this.startMs) ? this.nowMs - this.startMs : 0;
    const years = spanMs / YEAR_MS;
    const net = total.interestCents + total.recoveryCents - total.lossCents - ledger.dataSpendCents;
    const first = recording.entries[0];
    const last = recording.entries.at(-1);
    const start = this.options.startingBalanceCents;
    return {
      strategies: this.strategies.map((s) => ({
        name: s.name,
        version: s.version,
        contentHash: s.contentHash,
        file: s.file,
        params: { ...s.params },
        ...(s.marketSource === undefined ? {} : { marketSource: s.marketSource }),
      })),
      period: {
        from: first?.seenAt ?? null,
        to: last?.seenAt ?? null,
        end: Number.isFinite(this.nowMs) ? new Date(this.nowMs).toISOString() : null,
        requests: recording.entries.length,
        years,
      },
      settings: { startingBalanceCents: start, market: this.market },
      summary: {
        requests: total.requests,
        offers: total.offers,
        funded: total.funded,
        deployedCents: total.deployedCents,
        interestCents: total.interestCents,
        lossCents: total.lossCents,
        recoveryCents: total.recoveryCents,
        dataSpendCents: ledger.dataSpendCents,
        subscriptionCents: ledger.subscriptionCents,
        netCents: net,
        defaultRate: total.funded === 0 ? 0 : total.defaults / total.funded,
        guardRefusals: { ...this.refusals },
        capRefusals: { ...this.capRefusals },
        fundingFailures: this.fundingFailures,
        unjudgedOffers: this.unjudgedOffers,
        unjudgedShare: total.offers === 0 ? 0 : this.unjudgedOffers / total.offers,
        capitalUtilization:
          this.idleIntegral + this.deployedIntegral > 0 ? this.deployedIntegral / (this.idleIntegral + this.deployedIntegral) : 0,
        averageIdleCents: spanMs > 0 ? Math.round(this.idleIntegral / spanMs) : ledger.balanceCents,
        ...this.idleCash.shares(),
        netAnnualizedReturn: years > 0 && start > 0 ? net / start / years : 0,
        returnOnDeployed: segmentRow('all', { ...total, lossCents: total.lossCents + ledger.dataSpendCents }).annualizedReturn,
        maxDrawdown: this.maxDrawdown,
        largestExposureCents: ledger.largestExposureCents,
        largestBorrowerExposureCents: ledger.largestBorrowerExposureCents,
        finalBalanceCents: ledger.balanceCents,
        openCents: this.openCents,
      },
      segments: this.segments.rows(),
      offerStats: this.tally.rows(populationDefault(recording)),
      series: this.series,
      loans: this.loans,
      offeredRates: this.offeredRates,
      decisions: this.decisions,
      requestNetCents: this.requestNet,
    };
  }
}
