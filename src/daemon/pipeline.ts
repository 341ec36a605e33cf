/**
 * The path every loan request takes, whichever way it came (webhook, poll):
 *
 *   seen? ─> enrich ⇄ decide ─> guard ─> act ─> record
 *
 * - Each request gets exactly one decision row, offer or skip, with machine-readable reasons.
 * - Requests go through one at a time (SerialQueue), so the guard always sees the reservations
 *   of the offer before.
 * - `decide` is the strategy engine's pure `evaluateAll`, the same code the backtester runs.
 */
import type { Clock } from '../clock/clock.js';
import { budgetOfDecision, decideWithData, type CompiledStrategy } from '../engine/index.js';
import type { Logger } from '../log/logger.js';
import { checkOffer, snapshotFromStore, type RiskLimits } from '../risk/index.js';
import type { LoanRequest } from '../service/index.js';
import type { DecisionAction, RequestSource, Store } from '../store/index.js';
import type { BalanceTracker } from './balance-tracker.js';
import type { Enricher } from './enricher.js';
import type { OfferPlacer } from './offer-placer.js';
import { SerialQueue } from './serial-queue.js';

export interface PipelineDeps {
  store: Store;
  clock: Clock;
  log: Logger;
  /** The active strategies, in priority order; a function so hot reload can swap them. */
  strategies: () => readonly CompiledStrategy[];
  limits: () => RiskLimits;
  balance: BalanceTracker;
  enricher: Enricher;
  placer: OfferPlacer;
  dryRun: boolean;
}

export interface PipelineResult {
  loanRequestId: number;
  /** 'already' when the request had been decided before. */
  action: DecisionAction | 'already';
  rate?: number | undefined;
  reasons: string[];
}

export class Pipeline {
  private readonly queue = new SerialQueue();

  constructor(private readonly deps: PipelineDeps) {}

  /** Sends one request through the pipeline, after the requests queued before it. */
  process(request: LoanRequest, source: RequestSource): Promise<PipelineResult> {
    return this.queue.run(() => this.run(request, source));
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
    store.requests.markSeen(request, source, clock.now());
    if (store.decisions.has(request.id)) return { loanRequestId: request.id, action: 'already', reasons: [] };

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
    const { decision, dataReasons } = await timed('decide', () =>
      decideWithData(request, strategies, (need, enrichment, asking) =>
        timed('enrich', () => this.deps.enricher.buy(request, need, enrichment, budgetOfDecision(strategies, asking))),
      ),
    );
    // 'decide' includes the purchases it waited for; keep only the engine's own time.
    timings.decide = Math.round(((timings.decide ?? 0) - (timings.enrich ?? 0)) * 100) / 100;
    const reasons = [...decision.reasons, ...dataReasons];
    if (decision.action === 'needs_data') reasons.push('data still missing after buying; skipped');
    const action: DecisionAction =
      decision.action === 'offer' && decision.rate !== undefined
        ? await this.guardAndAct(request, decision.rate, decision.automateFund, reasons, timed)
        : 'skip';

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
    });
    log.info(
      { loanRequestId: request.id, source, action, rate: decision.rate, strategy: decision.strategy.name, reasons, dryRun: this.deps.dryRun },
      action === 'offer' ? 'decided: offer' : 'decided: skip',
    );
    return { loanRequestId: request.id, action, rate: decision.rate, reasons };
  }

  /**
   * Guards an offer decision and, when the guard allows it, places the offer. Returns the final
   * action; refusals and outcomes are appended to `reasons`.
   */
  private async guardAndAct(
    request: LoanRequest,
    rate: number,
    automateFund: boolean,
    reasons: string[],
    timed: <T>(step: string, work: () => Promise<T> | T) => Promise<T>,
  ): Promise<DecisionAction> {
    const { store, clock, log, dryRun } = this.deps;
    const refusal = await timed('guard', async () => {
      const limits = this.deps.limits();
      const balanceCents = await this.deps.balance.current();
      const snapshot = snapshotFromStore(store, balanceCents, clock.now(), limits, { dryRun });
      const result = checkOffer({ request, rate, automateFund }, snapshot, limits);
      return result.allowed ? undefined : result.reason;
    });
    if (refusal !== undefined) {
      reasons.push(refusal);
      return 'skip';
    }
    const outcome = await timed('act', () => this.deps.placer.place(request, rate, automateFund));
    switch (outcome.kind) {
      case 'refused':
        reasons.push(`service refused: ${outcome.text}`);
        return 'skip';
      case 'unknown':
        reasons.push(`offer outcome unknown: ${outcome.text}`);
        return 'offer';
      case 'exists':
        reasons.push(`offer already recorded (${outcome.state}); not sent again`);
        return 'offer';
      case 'placed':
        if (!dryRun) {
          // The offer may have moved money (automate_fund): refresh in the background.
          this.deps.balance.refresh().catch((error: unknown) => log.warn({ error: String(error) }, 'balance refresh failed'));
        }
        return 'offer';
    }
  }
}
