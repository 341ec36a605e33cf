/**
 * The path every loan request takes, whichever way it came (webhook, poll):
 *
 *   seen? ─> decide (enrich ⇄ decide ─> guard) ─> place ─> record ─> publish
 *
 * - Each request gets exactly one decision row, offer or skip, with machine-readable reasons.
 * - Requests go through one at a time (SerialQueue), so the guard always sees the reservations
 *   of the offer before.
 * - decide is the engine's decide step (src/engine/decide-step.ts), the same code the backtester
 *   and `strategy explain` run; here data comes from the service, spend goes to the purchases
 *   table, and the guard (request-guard.ts, RequestGuard.check) takes its snapshot from the store.
 *   place is the OfferPlacer (offer-placer.ts), record the decisions table, publish the log line
 *   and the listeners.
 * - The pipeline names no feature: what one needs before the decision (the cash position, the
 *   learned take-up) comes through the decide context by a provider it registers (`provide`);
 *   what it does after (shadows, market fates, the protections' count of refusals, metrics) is an
 *   `onDecided` listener (their types in decision-hooks.ts). Both run in the serial queue in the order registered.
 * - Between the webhook and the make_offer POST only what guards money is written: priced
 *   purchases and the offer intent. The request's raw JSON and free purchases (the banking data,
 *   redacted) follow the POST, then the decision row.
 * - A request whose data could not be fetched (request-fetching.ts) is not decided now ('deferred'): it waits its own
 *   back-off (request-retries.ts) and the caller goes on with the next request. When the failure
 *   is the request's own (an answer that cannot be read), the last of a bounded number of tries
 *   decides without that data; an outage of the service never makes a request decided blind.
 */
import type { Clock } from '../clock/clock.js';
import { placementReason, reasonText, type DecisionReason } from '../domain/decision-reason.js';
import type { LoanRequest, PlaceOutcome } from '../domain/index.js';
import { decideAsync, type CompiledStrategy, type DataSource, type DecideOutcome, type SpendLedger } from '../engine/index.js';
import type { Logger } from '../log/logger.js';
import type { RiskLimits } from '../risk/index.js';
import type { DecisionAction, RequestSource, Store } from '../store/index.js';
import type { ContextProvider, DecidedTurn, DecisionListener, PipelineResult, ProvidedContext } from './decision-hooks.js';
import { DeferredPurchases } from './deferred-purchases.js';
import { IdleUpkeep } from './idle-upkeep.js';
import type { OfferPlacer } from './offer-placer.js';
import { errorCode, fetchingFor, type DataFailure, type StepTimer } from './request-fetching.js';
import type { RequestGuards } from './request-guard.js';
import { RequestRetries, type RequestRetrySettings } from './request-retries.js';
import { RequestStrategies } from './request-strategies.js';
import { SerialQueue } from './serial-queue.js';

export interface PipelineDeps {
  store: Store;
  clock: Clock;
  log: Logger;
  /**
   * The active strategies, in priority order; a function so hot reload can swap them. Those
   * marked `shadow` only decide beside the live ones on the live ones' data (src/challengers/shadow-decide.ts).
   */
  strategies: () => readonly CompiledStrategy[];
  limits: () => RiskLimits;
  /** Each request's guard: the pure guard on the store's snapshot, the pause, a live split's arm share. */
  guards: RequestGuards;
  /** Where bought data comes from (the service) and where its spend is recorded (the store). */
  data: DataSource<false>;
  spend: SpendLedger;
  placer: OfferPlacer;
  dryRun: boolean;
  /** Real milliseconds without a request after which the store's WAL is checkpointed (default 1 s). */
  idleCheckpointMs?: number | undefined;
  /** The clock a request whose data failed waits on (default `clock`): real time when the market's clock is fast. */
  retryClock?: Clock | undefined;
  /** How long such a request waits and how often it is tried (default DEFAULT_REQUEST_RETRY). */
  retry?: RequestRetrySettings | undefined;
}

/** The decide and place steps of one request, as record and publish take them. */
interface Decided extends Omit<DecidedTurn, 'decidedAtMs'> {
  reasons: DecisionReason[];
  timings: Record<string, number>;
}

export class Pipeline {
  private readonly queue = new SerialQueue();
  private readonly providers: ContextProvider[] = [];
  private readonly listeners: DecisionListener[] = [];
  private readonly retries: RequestRetries;
  private readonly roles: RequestStrategies;
  private readonly upkeep: IdleUpkeep;
  private intakeStopped = false;

  constructor(private readonly deps: PipelineDeps) {
    this.retries = new RequestRetries(deps.retryClock ?? deps.clock, deps.retry);
    this.roles = new RequestStrategies(deps);
    this.upkeep = new IdleUpkeep({ ...deps, inFlight: () => this.queue.size, checkpointAfterMs: deps.idleCheckpointMs });
  }

  /** When a request whose data failed may be tried again, while it waits (the inbox skips it until then). */
  waitingUntil(loanRequestId: number): number | undefined {
    return this.retries.waitingUntil(loanRequestId);
  }

  /** Adds to each request's decide context, before its decision, after the providers registered before (a later one's field wins). */
  provide(provider: ContextProvider): void {
    this.providers.push(provider);
  }

  /** Calls `listener` after each decision is recorded, after the listeners registered before; one that throws is logged, never fatal. */
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

  /** The trip of one request: seen -> decide (guard included) -> place -> record -> publish. */
  private async run(request: LoanRequest, source: RequestSource): Promise<PipelineResult> {
    const { store, clock } = this.deps;
    const seenAtMs = clock.now();
    const notNow = this.notToDecide(request, source, seenAtMs);
    if (notNow !== undefined) return notNow;
    const { timings, timed } = stepTimings();
    const { live: strategies, shadows, splitArm } = this.roles.forRequest(request.id);
    const purchases = new DeferredPurchases(this.deps.spend);
    let provided: ProvidedContext = {};
    for (const provider of this.providers) provided = { ...provided, ...(await provider({ request, strategies, nowMs: clock.now() })) };
    const context = { ...provided, strategies, nowMs: clock.now(), ledger: purchases };
    const fetching = fetchingFor(request, this.deps.data, this.retries, timed);
    const guard = this.deps.guards.forRequest(request, splitArm);
    let outcome: DecideOutcome;
    let placement: PlaceOutcome | undefined;
    try {
      outcome = await timed('decide', () => decideAsync(request, context, fetching.data, (question) => guard.check(question)));
      const { decision } = outcome;
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
    const guardMs = guard.spentMs;
    if (guardMs !== undefined) timings.guard = Math.round(guardMs * 100) / 100;
    // 'decide' includes the purchases and the guard it waited for; keep only the engine's own time.
    timings.decide = Math.round(((timings.decide ?? 0) - (timings.enrich ?? 0) - (guardMs ?? 0)) * 100) / 100;
    // Data given up on after the request's tries: the decision was made without it, and says so.
    const reasons = outcome.reasons.concat(fetching.givenUp);
    return this.recordAndPublish(request, source, { outcome, placement, shadows, provided, reasons, timings });
  }

  /** The result of a request not decided now (stopping, decided before, waiting its back-off); undefined when it is decided now. */
  private notToDecide(request: LoanRequest, source: RequestSource, seenAtMs: number): PipelineResult | undefined {
    if (this.intakeStopped) return { loanRequestId: request.id, action: 'stopped', reasons: [] };
    if (this.deps.store.decisions.has(request.id)) {
      this.deps.store.requests.markSeen(request, source, seenAtMs);
      return { loanRequestId: request.id, action: 'already', reasons: [] };
    }
    const waitingUntil = this.retries.waitingUntil(request.id);
    if (waitingUntil === undefined) return undefined;
    return { loanRequestId: request.id, action: 'deferred', reasons: [], deferred: { own: false, retryAtMs: waitingUntil } };
  }

  /** Writes the decision row, then says it: the log line and every listener, in order. */
  private recordAndPublish(request: LoanRequest, source: RequestSource, decided: Decided): PipelineResult {
    const { store, clock, log, dryRun } = this.deps;
    const { outcome, placement, reasons } = decided;
    const { decision } = outcome;
    const guard = outcome.guard?.allowed === false ? outcome.guard.code : undefined;
    const action = placement === undefined ? 'skip' : actionAfter(placement, reasons);
    const decidedAtMs = clock.now();
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
      dryRun,
      decidedAtMs,
      timings: decided.timings,
      guardCode: guard ?? null,
      placement: placement?.kind ?? null,
      calibration: decision.calibration,
    });
    this.retries.forget(request.id);
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
        dryRun,
        totalAmount: request.total_amount,
        riskLevel: request.borrower_card_color,
      },
      action === 'offer' ? 'decided: offer' : 'decided: skip',
    );
    const result: PipelineResult = { loanRequestId: request.id, action, rate: decision.rate, reasons, guard, placement: placement?.kind };
    const turn = { ...decided, decidedAtMs };
    for (const listener of this.listeners) {
      try {
        listener(request, source, result, turn);
      } catch (error) {
        log.error({ err: error, loanRequestId: request.id }, 'decision listener failed');
      }
    }
    return result;
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
}

/** The action an offer sent comes to (a refusal is a skip); its outcome is appended to `reasons`. */
function actionAfter(placement: PlaceOutcome, reasons: DecisionReason[]): DecisionAction {
  const fate = placementReason(placement);
  if (fate !== undefined) reasons.push(fate);
  return placement.kind === 'refused' ? 'skip' : 'offer';
}

/** The decision row's timings, and the timer each step adds its milliseconds into. */
function stepTimings(): { timings: Record<string, number>; timed: StepTimer } {
  const timings: Record<string, number> = {};
  const timed: StepTimer = async (step, work) => {
    const started = performance.now();
    try {
      return await work();
    } finally {
      timings[step] = Math.round((performance.now() - started) * 100) / 100 + (timings[step] ?? 0);
    }
  };
  return { timings, timed };
}
