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
 *   to the purchases table, and the guard's snapshot comes from the store.
 * - Between the webhook and the make_offer POST only what guards money is written: priced
 *   purchases and the offer intent. The request's raw JSON and free purchases (the banking data,
 *   redacted) follow the POST, then the decision row.
 */
import type { Clock } from '../clock/clock.js';
import { decideAsync, type CompiledStrategy, type DataSource, type DecideOutcome, type SpendLedger } from '../engine/index.js';
import type { Logger } from '../log/logger.js';
import { checkOffer, snapshotFromStore, type GuardRefusalCode, type RiskLimits } from '../risk/index.js';
import type { LoanRequest } from '../service/index.js';
import type { DecisionAction, RequestSource, Store } from '../store/index.js';
import type { BalanceTracker } from './balance-tracker.js';
import { DeferredPurchases } from './deferred-purchases.js';
import type { Protections } from '../ops/protections/index.js';
import type { OfferPlacer, PlaceOutcome } from './offer-placer.js';
import { SerialQueue } from './serial-queue.js';

export interface PipelineDeps {
  store: Store;
  clock: Clock;
  log: Logger;
  /** The active strategies, in priority order; a function so hot reload can swap them. */
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
}

const IDLE_CHECKPOINT_MS = 1_000;

export interface PipelineResult {
  loanRequestId: number;
  /** 'already' when the request had been decided before. */
  action: DecisionAction | 'already';
  rate?: number | undefined;
  reasons: string[];
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
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(private readonly deps: PipelineDeps) {}

  /** Calls `listener` after each decision is recorded; a listener that throws is logged, never fatal. */
  onDecided(listener: DecisionListener): void {
    this.listeners.push(listener);
  }

  /** Sends one request through the pipeline, after the requests queued before it. */
  process(request: LoanRequest, source: RequestSource): Promise<PipelineResult> {
    clearTimeout(this.idleTimer);
    return this.queue.run(async () => {
      try {
        return await this.run(request, source);
      } finally {
        if (this.queue.size === 1) {
          this.prepareGuardFiguresWhenIdle();
          this.checkpointWhenIdle();
        }
      }
    });
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
    const seenAtMs = clock.now();
    if (store.decisions.has(request.id)) {
      store.requests.markSeen(request, source, seenAtMs);
      return { loanRequestId: request.id, action: 'already', reasons: [] };
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

    const strategies = this.deps.strategies();
    const purchases = new DeferredPurchases(this.deps.spend);
    const context = { strategies, nowMs: clock.now(), ledger: purchases };
    let guardMs: number | undefined;
    let outcome: DecideOutcome;
    let placement: PlaceOutcome | undefined;
    try {
      outcome = await timed('decide', () =>
        decideAsync(request, context, this.timedData(timed), async (offer) => {
          const started = performance.now();
          const limits = this.deps.limits();
          const balanceCents = await this.deps.balance.current();
          const snapshot = {
            ...snapshotFromStore(store, balanceCents, clock.now(), limits, { dryRun: this.deps.dryRun }),
            pauseReason: this.deps.protections?.activePause()?.reason,
          };
          const result = checkOffer(offer, snapshot, limits);
          // Asked before buying data and again on the offer: both count.
          guardMs = (guardMs ?? 0) + performance.now() - started;
          return result;
        }),
      );
      const { decision } = outcome;
      const rate = decision.rate;
      if (outcome.action === 'offer' && rate !== undefined) {
        placement = await timed('act', () => this.deps.placer.place(request, rate, decision.automateFund));
      }
    } finally {
      // Written once the offer went out (or failed): neither guards money (the intent row does,
      // and priced purchases were written at once), so neither delays the POST.
      store.requests.markSeen(request, source, seenAtMs);
      purchases.flush();
    }
    if (guardMs !== undefined) timings.guard = Math.round(guardMs * 100) / 100;
    // 'decide' includes the purchases and the guard it waited for; keep only the engine's own time.
    timings.decide = Math.round(((timings.decide ?? 0) - (timings.enrich ?? 0) - (guardMs ?? 0)) * 100) / 100;
    const { decision, reasons } = outcome;
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
    });
    // totalAmount and riskLevel (added after the rest) let a terminal say "$536.00 at 22.8 %, risk low" (src/log/terminal-lines.ts).
    log.info(
      {
        loanRequestId: request.id,
        source,
        action,
        rate: decision.rate,
        strategy: decision.strategy.name,
        reasons,
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

  /**
   * Once no request waits, brings the guard's store figures up to date with the writes of the
   * request just decided (the open-offer book takes them in and keeps its answers: src/store/
   * open-offer-book.ts), so the next request's guard finds them ready instead of counting them on
   * its way to the offer. Nothing is kept from here but the book's own state: the guard still
   * asks the store afresh, and the book answers from what it holds only while nothing changed.
   */
  private prepareGuardFiguresWhenIdle(): void {
    setImmediate(() => {
      if (this.queue.size > 0) return;
      const { store, clock, dryRun, log } = this.deps;
      try {
        snapshotFromStore(store, 0, clock.now(), this.deps.limits(), { dryRun });
      } catch (error) {
        // Only preparation: the next guard counts for itself.
        log.debug({ err: error }, 'guard figures not prepared');
      }
    });
  }

  /**
   * Checkpoints the store once no request came for a while: a checkpoint fsyncs, and done by a
   * commit on the way to an offer it would delay that offer (src/store/database.ts).
   */
  private checkpointWhenIdle(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      if (this.queue.size > 0) return;
      try {
        this.deps.store.checkpoint();
      } catch (error) {
        // The next idle moment (or SQLite's own backstop) tries again.
        this.deps.log.warn({ err: error }, 'WAL checkpoint failed');
      }
    }, this.deps.idleCheckpointMs ?? IDLE_CHECKPOINT_MS);
    this.idleTimer.unref();
  }

  /** The data source, with each fetch timed as 'enrich'. */
  private timedData(timed: <T>(step: string, work: () => Promise<T> | T) => Promise<T>): DataSource<false> {
    const { data } = this.deps;
    return {
      bankingData: (request) => timed('enrich', () => data.bankingData(request)),
      borrowerHistory: (request) => timed('enrich', () => data.borrowerHistory(request)),
      providerResult: (request, provider) => timed('enrich', () => data.providerResult(request, provider)),
    };
  }

  /** The action an offer sent comes to; its outcome is appended to `reasons`. */
  private afterPlacement(placement: PlaceOutcome, reasons: string[]): DecisionAction {
    const { log, dryRun } = this.deps;
    switch (placement.kind) {
      case 'refused':
        reasons.push(`service refused: ${placement.text}`);
        this.deps.protections?.noteOfferRefusal(placement.serviceText);
        return 'skip';
      case 'unknown':
        reasons.push(`offer outcome unknown: ${placement.text}`);
        return 'offer';
      case 'exists':
        reasons.push(`offer already recorded (${placement.state}); not sent again`);
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
