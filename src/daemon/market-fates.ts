/**
 * The daemon's side of prices that learn (docs/market-model.md, "Learning while live"): the
 * learners, restored from the store at start; a row per decision a learned response priced
 * (which version, what evidence, whether it explored); and, on its schedule, each placed
 * offer's fate fed to its strategy's learner once the daemon knows it (offer-fate.ts): accepted
 * or funded teaches 1, rejected, lost or expired 0. A dry run's offers reach no borrower and
 * teach nothing. The fate and the learner state it changed are written in one transaction, so a
 * restart resumes the posterior exactly and never learns a fate twice. The learned default levels
 * ride along (calibration-fates.ts): restored here, fed from loans' payments on the same pass.
 */
import type { Clock } from '../clock/clock.js';
import type { Decision } from '../engine/index.js';
import {
  learnedOfferOf,
  learningSummary,
  MarketLearning,
  type LearnerState,
  type LearningObservation,
  type StoredLearnerState,
} from '../engine/market/index.js';
import type { Logger } from '../log/logger.js';
import { createMarketLearningRepository, type MarketLearningRepository } from '../store/market-learning-repository.js';
import { databaseOf, type Store } from '../store/index.js';
import { CalibrationFeeder, storedCalibrations } from './calibration-fates.js';
import type { ContextProvider, DecisionListener } from './decision-hooks.js';

/** Offers looked at per pass; the rest wait for the next. */
const BATCH = 500;

export interface MarketFatesDeps {
  store: Store;
  clock: Clock;
  log: Logger;
  offerExpiryMs: () => number;
}

/** What the store keeps per learner: its state, settings, and the summary status and the dashboard read. */
interface StoredLearnerJson extends StoredLearnerState {
  summary: unknown;
}

function isStoredLearner(value: unknown): value is StoredLearnerJson {
  const state = (value as { state?: Partial<LearnerState> } | null)?.state;
  const settings = (value as { settings?: unknown } | null)?.settings;
  return Array.isArray(state?.posterior?.mean) && Array.isArray(state?.posterior?.cov) && typeof settings === 'object' && settings !== null;
}

/** The learners stored in `store` (readable ones, as MarketLearning takes them), and the strategies whose state is unreadable. */
export function storedLearners(store: Store): { restored: Array<[string, StoredLearnerState]>; unreadable: string[] } {
  const restored: Array<[string, StoredLearnerState]> = [];
  const unreadable: string[] = [];
  for (const row of createMarketLearningRepository(databaseOf(store)).learners()) {
    if (isStoredLearner(row.state)) restored.push([row.strategy, { state: row.state.state, settings: row.state.settings }]);
    else unreadable.push(row.strategy);
  }
  return { restored, unreadable };
}

export class MarketFates {
  readonly learning: MarketLearning;
  /** Feeds funded loans' payments to the learned default levels (score.calibration method learned). */
  readonly calibration: CalibrationFeeder;
  private readonly book: MarketLearningRepository;

  constructor(private readonly deps: MarketFatesDeps) {
    this.book = createMarketLearningRepository(databaseOf(deps.store));
    const { restored, unreadable } = storedLearners(deps.store);
    for (const strategy of unreadable) deps.log.warn({ strategy }, 'stored market learner unreadable; it starts again from its prior');
    const calibrations = storedCalibrations(deps.store);
    for (const strategy of calibrations.unreadable)
      deps.log.warn({ strategy }, 'stored default-level learner unreadable; it starts again from its prior');
    this.learning = new MarketLearning(restored, calibrations.restored);
    this.calibration = new CalibrationFeeder(deps.store, this.learning.calibration, deps.log);
  }

  /**
   * Attaches to the pipeline: the learners price its decisions (the decide context's `learning`),
   * and each decision they priced is noted once recorded. A dry run's offers reach no borrower.
   */
  attachTo(pipeline: { provide(provider: ContextProvider): void; onDecided(listener: DecisionListener): void }, dryRun: boolean): void {
    pipeline.provide(() => ({ learning: this.learning }));
    pipeline.onDecided((request, _source, { action }, { outcome, placement, decidedAtMs }) => {
      if (action !== 'offer' && action !== 'skip') return;
      // An unknown answer may have reached the service: its fate is learned once the reconciler settles it.
      const mayReachBorrower = !dryRun && (placement?.kind === 'placed' || placement?.kind === 'unknown');
      this.noteDecision(request.id, outcome.decision, action, mayReachBorrower, decidedAtMs);
    });
  }

  /**
   * After a decision is recorded: notes which learned response priced it and saves the learner
   * (an offer moves its exploration totals). `mayReachBorrower`: a live offer the service took,
   * or may have taken (an unknown answer, settled later); its fate is learned when known.
   */
  noteDecision(loanRequestId: number, decision: Decision, action: 'offer' | 'skip', mayReachBorrower: boolean, atMs: number): void {
    const priced = decision.marketResponse;
    if (priced === undefined) return;
    const learned = learnedOfferOf(decision);
    const teaches = action === 'offer' && mayReachBorrower && learned !== undefined;
    this.book.transaction(() => {
      this.book.recordDecision({
        loanRequestId,
        strategy: decision.strategy.name,
        version: priced.version,
        evidence: priced.evidence,
        explored: priced.explored,
        action,
        rate: decision.rate ?? null,
        predicted: learned?.predicted ?? null,
        observation: teaches ? learned.observation : null,
        decidedAtMs: atMs,
      });
      this.save(decision.strategy.name, atMs);
    });
  }

  /** Feeds every fate learned since the last pass; returns how many were learned. */
  learnFates(): number {
    const { store, clock } = this.deps;
    const nowMs = clock.now();
    const expiryMs = this.deps.offerExpiryMs();
    let learnedCount = 0;
    for (const row of this.book.unlearned(BATCH)) {
      const offer = store.offers.getByRequest(row.loanRequestId);
      const fate = offer === undefined ? undefined : store.offers.fate(offer, { nowMs, expiryMs });
      if (fate === undefined) {
        // Still being settled (an intent, an unknown answer): wait; otherwise it never reached a borrower.
        if (offer?.state !== 'intent' && offer?.state !== 'unknown') this.book.markLearned(row.loanRequestId, 'none', nowMs);
        continue;
      }
      if (fate.fate === 'pending') continue;
      const accepted = fate.fate === 'accepted';
      this.book.transaction(() => {
        if (this.learning.observe(row.strategy, row.observation as LearningObservation, accepted)) this.save(row.strategy, nowMs);
        this.book.markLearned(row.loanRequestId, fate.fate, nowMs);
      });
      learnedCount += 1;
    }
    if (learnedCount > 0) this.deps.log.info({ fates: learnedCount }, 'market response learned from offer fates');
    this.calibration.feed(nowMs);
    return learnedCount;
  }

  private save(strategy: string, atMs: number): void {
    const learner = this.learning.existing(strategy);
    if (learner === undefined) return;
    const json: StoredLearnerJson = { state: learner.snapshotState, settings: learner.settings, summary: learningSummary(learner) };
    this.book.saveLearner(strategy, learner.version, learner.evidence, json, atMs);
  }
}
