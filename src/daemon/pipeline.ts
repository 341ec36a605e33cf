/**
 * The path every loan request takes, whichever way it came (webhook, poll):
 *
 *   seen? ─> enrich ⇄ decide ─> guard ─> act ─> record
 *
 * - Each request gets exactly one decision row, offer or skip, with machine-readable reasons.
 * - Requests go through one at a time (SerialQueue), so the guard always sees the reservations
 *   of the offer before.
 * - enrich ⇄ decide ─> guard is the engine's decide step (src/engine/decide-step.ts), the same
 *   code the backtester and `strategy explain` run; here data comes from the service, spend goes
 *   to the purchases table, and the guard (request-guard.ts, RequestGuard.check) takes its
 *   snapshot from the store. act is the OfferPlacer (offer-placer.ts), record the decisions table.
 * - Between the webhook and the make_offer POST only what guards money is written: priced
 *   purchases and the offer intent. The request's raw JSON and free purchases (the banking data,
 *   redacted) follow the POST, then the decision row.
 * - A request whose data could not be fetched (request-fetching.ts) is not decided now ('deferred'): it waits its own
 *   back-off (request-retries.ts) and the caller goes on with the next request. When the failure
 *   is the request's own (an answer that cannot be read), the last of a bounded number of tries
 *   decides without that data; an outage of the service never makes a request decided blind.
 */
import type { MarketFates } from './market-fates.js';
import type { Clock } from '../clock/clock.js';
import { placementReason, reasonText, type DecisionReason } from '../domain/decision-reason.js';
import { decideAsync, type CompiledStrategy, type DataSource, type DecideOutcome, type SpendLedger } from '../engine/index.js';
import type { Logger } from '../log/logger.js';
import type { GuardRefusalCode, RiskLimits } from '../risk/index.js';
import { type LoanRequest, type PlaceOutcome, parseCents } from '../domain/index.js';
import type { DecisionAction, RequestSource, Store } from '../store/index.js';
import type { BalanceTracker } from './balance-tracker.js';
import { DeferredPurchases } from './deferred-purchases.js';
import { DEFAULT_REQUEST_RETRY, RequestRetries, type RequestRetrySettings } from './request-retries.js';
import type { Protections } from '../ops/protections/index.js';
import type { OfferPlacer } from './offer-placer.js';
import { RequestGuard } from './request-guard.js';
import { SerialQueue } from './serial-queue.js';
import { decideShadows } from './shadow-decide.js';
import { databaseOf } from '../store/index.js';
import { createShadowDecisionsRepository, type ShadowDecisionsRepository } from '../store/shadow-decisions-repository.js';
import { createShadowSplitRepository, type ShadowSplitRepository } from '../store/shadow-split-repository.js';
import { RecentDemand, type CashPosition } from '../engine/pricing/cash-hurdle.js';
import { IdleUpkeep } from './idle-upkeep.js';
import { errorCode, fetchingFor, type DataFailure } from './request-fetching.js';
import { RequestStrategies } from './request-strategies.js';

export interface PipelineDeps {
  store: Store;
  clock: Clock;
  log: Logger;
  /**
   * The active strategies, in priority order; a function so hot reload can swap them. Those
   * marked `shadow` only decide beside the live ones on the live ones' data (src/daemon/shadow-decide.ts).
   */
  strategies: () => readonly CompiledStrategy[];
  limits: () => RiskLimits;
  balance: BalanceTracker;
  /** Where bought data comes from (the service) and where its spend is recorded (the store). */
  data: DataSource<false>;
  spend: SpendLedger;
  placer: OfferPlacer;
  dryRun: boolean;
  /** Automatic pauses (src/ops/protections): a pause refuses every offer; refusals feed them. */
  protections?: Pick<Protections, 'activePause' | 'noteOfferRefusal'> | undefined;
  /** Real milliseconds without a request after which the store's WAL is checkpointed (default 1 s). */
  idleCheckpointMs?: number | undefined;
  /** The clock a request whose data failed waits on (default `clock`): real time when the market's clock is fast. */
  retryClock?: Clock | undefined;
  /** How long such a request waits and how often it is tried (default DEFAULT_REQUEST_RETRY). */
  retry?: RequestRetrySettings | undefined;
  /** The learners of strategies with `pricing.learning` (market-fates.ts): they price, and each decision they priced is noted. */
  marketFates?: MarketFates | undefined;
}

/** Why a request was not decided now, and when it may be tried again. */
export interface Deferral {
  /** The failure is the request's own (counted toward its tries), not an outage of the service. */
  own: boolean;
  retryAtMs: number;
  /** The failure; undefined when the request was still waiting from an earlier one. */
  error?: unknown;
}

export interface PipelineResult {
  loanRequestId: number;
  /**
   * 'already' when the request had been decided before; 'deferred' when it could not be decided
   * now (its data failed, or it still waits after such a failure): no decision row, tried later;
   * 'stopped' when the daemon is stopping and the request had not begun (decided after the restart).
   */
  action: DecisionAction | 'already' | 'deferred' | 'stopped';
  deferred?: Deferral | undefined;
  rate?: number | undefined;
  reasons: DecisionReason[];
  /** Why the guard refused, as a code; the reasons say it in words. */
  guard?: GuardRefusalCode | undefined;
  /** What became of the offer sent; undefined when none was sent. */
  placement?: PlaceOutcome['kind'] | undefined;
}

/** Hears every request the pipeline decided (not those decided before): metrics, notifications. */
export type DecisionListener = (request: LoanRequest, source: RequestSource, result: PipelineResult) => void;

export class Pipeline {
  private readonly queue = new SerialQueue();
  private readonly listeners: DecisionListener[] = [];
  private readonly retries: RequestRetries;
  private readonly roles: RequestStrategies;
  private readonly upkeep: IdleUpkeep;
  private intakeStopped = false;
  private shadowBook: ShadowDecisionsRepository | undefined;
  private splitBook: ShadowSplitRepository | undefined;
  /** Expected demand for cash (offered-on totals × modelled take-up), for strategies whose hurdle follows cash. */
  private readonly demand = new RecentDemand();

  constructor(private readonly deps: PipelineDeps) {
    this.retries = new RequestRetries(deps.retryClock ?? deps.clock, deps.retry ?? DEFAULT_REQUEST_RETRY);
    this.roles = new RequestStrategies(deps);
    this.upkeep = new IdleUpkeep({ ...deps, inFlight: () => this.queue.size, checkpointAfterMs: deps.idleCheckpointMs });
  }

  /** When a request whose data failed may be tried again, while it waits (the inbox skips it until then). */
  waitingUntil(loanRequestId: number): number | undefined {
    return this.retries.waitingUntil(loanRequestId);
  }

  /** Calls `listener` after each decision is recorded; a listener that throws is logged, never fatal. */
  onDecided(listener: DecisionListener): void {
    this.listeners.push(listener);
  }

  /** Sends one request through the pipeline, after the requests queued before it. */
  process(request: LoanRequest, source: RequestSource): Promise<PipelineResult> {
    this.upkeep.requestArrived();
    return this.queue.run(async () => {
      try {
        return await this.run(request, source);
      } finally {
        if (this.queue.size === 1) this.upkeep.pipelineEmptied();
      }
    });
  }

  /**
   * Shutdown: a request whose turn comes after this is not decided ('stopped'); the one being
   * decided finishes. Jobs run by exclusive() are not affected.
   */
  stopIntake(): void {
    this.intakeStopped = true;
  }

  /** Runs `job` between requests, never during one (the reconciler uses it). */
  exclusive<T>(job: () => Promise<T>): Promise<T> {
    return this.queue.run(job);
  }

  /** Resolves when no request is in the pipeline. */
  idle(): Promise<void> {
    return this.queue.idle();
  }

  get inFlight(): number {
    return this.queue.size;
  }

  private async run(request: LoanRequest, source: RequestSource): Promise<PipelineResult> {
    const { store, clock, log } = this.deps;
    if (this.intakeStopped) return { loanRequestId: request.id, action: 'stopped', reasons: [] };
    const seenAtMs = clock.now();
    if (store.decisions.has(request.id)) {
      store.requests.markSeen(request, source, seenAtMs);
      return { loanRequestId: request.id, action: 'already', reasons: [] };
    }
    const waitingUntil = this.retries.waitingUntil(request.id);
    if (waitingUntil !== undefined) {
      return { loanRequestId: request.id, action: 'deferred', reasons: [], deferred: { own: false, retryAtMs: waitingUntil } };
    }

    const timings: Record<string, number> = {};
    const timed = async <T>(step: string, work: () => Promise<T> | T): Promise<T> => {
      const started = performance.now();
      try {
        return await work();
      } finally {
        timings[step] = Math.round((performance.now() - started) * 100) / 100 + (timings[step] ?? 0);
      }
    };

    const { live: strategies, shadows, splitArm } = this.roles.forRequest(request.id);
    const purchases = new DeferredPurchases(this.deps.spend);
    const cash = strategies.some((strategy) => strategy.followsCash === true) ? await this.cashPosition(clock.now()) : undefined;
    const context = { strategies, nowMs: clock.now(), ledger: purchases, cash, learning: this.deps.marketFates?.learning };
    let outcome: DecideOutcome;
    let placement: PlaceOutcome | undefined;
    const fetching = fetchingFor(request, this.deps.data, this.retries, timed);
    const requestGuard = new RequestGuard(
      {
        store,
        clock,
        dryRun: this.deps.dryRun,
        limits: this.deps.limits,
        balance: this.deps.balance,
        protections: this.deps.protections,
        splitBook: () => this.splitBookOf(),
      },
      request,
      splitArm,
    );
    try {
      outcome = await timed('decide', () => decideAsync(request, context, fetching.data, (question) => requestGuard.check(question)));
      const { decision } = outcome;
      // What the strategies would offer on, guard or not, weighted by its modelled take-up: the cash it would draw.
      if (decision.action === 'offer')
        this.demand.add(clock.now(), parseCents(request.total_amount) * (decision.modelled?.acceptProbability ?? 1));
      const rate = decision.rate;
      if (outcome.action === 'offer' && rate !== undefined) {
        const paper = { strategy: decision.strategy.name, modelled: decision.modelled, repayProbability: decision.probability };
        placement = await timed('act', () => this.deps.placer.place(request, rate, decision.automateFund, paper));
      }
    } catch (error) {
      const failure = fetching.failure();
      // Only a data fetch of this request defers it; anything else (the balance read, a bug) is thrown.
      if (failure === undefined || failure.error !== error) throw error;
      return this.defer(request, failure);
    } finally {
      // Written once the offer went out (or failed): neither guards money (the intent row does,
      // and priced purchases were written at once), so neither delays the POST.
      store.requests.markSeen(request, source, seenAtMs);
      purchases.flush();
    }
    const guardMs = requestGuard.spentMs;
    if (guardMs !== undefined) timings.guard = Math.round(guardMs * 100) / 100;
    // 'decide' includes the purchases and the guard it waited for; keep only the engine's own time.
    timings.decide = Math.round(((timings.decide ?? 0) - (timings.enrich ?? 0) - (guardMs ?? 0)) * 100) / 100;
    const { decision } = outcome;
    // Data given up on after the request's tries: the decision was made without it, and says so.
    const reasons = outcome.reasons.concat(fetching.givenUp);
    const guard = outcome.guard?.allowed === false ? outcome.guard.code : undefined;
    const action = placement === undefined ? 'skip' : this.afterPlacement(placement, reasons);

    store.decisions.record({
      loanRequestId: request.id,
      strategy: decision.strategy.name,
      contentHash: decision.strategy.contentHash,
      params: decision.params,
      features: { ...decision.features, contributions: decision.contributions },
      probability: decision.probability ?? null,
      // Kept on a refusal too: what the strategy would have offered.
      rate: decision.rate ?? null,
      action,
      reasons,
      dryRun: this.deps.dryRun,
      decidedAtMs: clock.now(),
      timings,
      guardCode: guard ?? null,
      placement: placement?.kind ?? null,
      calibration: decision.calibration,
    });
    // An unknown answer may have reached the service: its fate is learned once the reconciler settles it.
    const mayReachBorrower = !this.deps.dryRun && (placement?.kind === 'placed' || placement?.kind === 'unknown');
    this.deps.marketFates?.noteDecision(request.id, decision, action, mayReachBorrower, clock.now());
    this.retries.forget(request.id);
    if (shadows.length > 0) this.recordShadows(request, outcome, shadows);
    // totalAmount and riskLevel (added after the rest) let a terminal say "$536.00 at 22.8 %, risk low" (src/log/terminal-lines.ts).
    log.info(
      {
        loanRequestId: request.id,
        source,
        action,
        rate: decision.rate,
        strategy: decision.strategy.name,
        reasons: reasons.map(reasonText),
        // The same reasons as values, for a terminal's words (no reader parses the texts).
        reasonValues: reasons,
        dryRun: this.deps.dryRun,
        totalAmount: request.total_amount,
        riskLevel: request.borrower_card_color,
      },
      action === 'offer' ? 'decided: offer' : 'decided: skip',
    );
    const result: PipelineResult = { loanRequestId: request.id, action, rate: decision.rate, reasons, guard, placement: placement?.kind };
    for (const listener of this.listeners) {
      try {
        listener(request, source, result);
      } catch (error) {
        log.error({ err: error, loanRequestId: request.id }, 'decision listener failed');
      }
    }
    return result;
  }

  /** What each arm of the split has committed, made on first use. */
  private splitBookOf(): ShadowSplitRepository {
    this.splitBook ??= createShadowSplitRepository(databaseOf(this.deps.store));
    return this.splitBook;
  }

  /** Free cash as the guard's balance rule counts it (balance − pending offers − reserve), with the recent demand. */
  private async cashPosition(nowMs: number): Promise<CashPosition> {
    const limits = this.deps.limits();
    const balanceCents = await this.deps.balance.current();
    const reservedCents = this.deps.store.offers.reserved({
      nowMs,
      expiryMs: limits.offerExpiryMs,
      dryRun: this.deps.dryRun,
      includeManual: limits.reserveManualOffers,
    });
    return this.demand.position(nowMs, balanceCents - reservedCents - limits.minCashReserveCents);
  }

  /**
   * The challengers' would-be offers on the request just decided, on the data it bought. After
   * the live decision is recorded, so nothing of theirs is on the way to the offer; a failure
   * here is logged and never touches the live decision.
   */
  private recordShadows(request: LoanRequest, outcome: DecideOutcome, shadows: readonly CompiledStrategy[]): void {
    try {
      this.shadowBook ??= createShadowDecisionsRepository(databaseOf(this.deps.store));
      for (const row of decideShadows(request, outcome.enrichment, shadows, this.deps.clock.now(), this.deps.marketFates?.learning))
        this.shadowBook.record(row);
    } catch (error) {
      this.deps.log.warn({ err: error, loanRequestId: request.id }, 'shadow decisions not recorded');
    }
  }

  /** A request whose data failed: it waits its back-off and is decided on a later try. */
  private defer(request: LoanRequest, failure: DataFailure): PipelineResult {
    const text = failure.error instanceof Error ? failure.error.message : String(failure.error);
    const step = this.retries.failed(request.id, failure.own, text);
    this.deps.log.warn(
      {
        loanRequestId: request.id,
        data: failure.what,
        code: errorCode(failure.error),
        own: failure.own,
        failures: step.own,
        retryAt: new Date(step.retryAtMs).toISOString(),
        err: failure.error,
      },
      failure.own
        ? "request's data could not be read; decided later, the others go on"
        : 'data not fetched (service outage); request decided later',
    );
    return {
      loanRequestId: request.id,
      action: 'deferred',
      reasons: [],
      deferred: { own: failure.own, retryAtMs: step.retryAtMs, error: failure.error },
    };
  }

  /** The action an offer sent comes to; its outcome is appended to `reasons`. */
  private afterPlacement(placement: PlaceOutcome, reasons: DecisionReason[]): DecisionAction {
    const { log, dryRun } = this.deps;
    const fate = placementReason(placement);
    if (fate !== undefined) reasons.push(fate);
    switch (placement.kind) {
      case 'refused':
        this.deps.protections?.noteOfferRefusal(placement.serviceText);
        return 'skip';
      case 'unknown':
      case 'exists':
        return 'offer';
      case 'placed':
        if (!dryRun) {
          // The offer may have moved money (automate_fund): refresh in the background.
          this.deps.balance.refresh().catch((error: unknown) => log.warn({ err: error }, 'balance refresh failed'));
        }
        return 'offer';
    }
  }
}
