/**
 * The market-learning wing (`pricing.learning`; docs/market-model.md, "Learning while live"),
 * attached in one call (attachMarketLearning, as attachOps is): the learners the last run stored,
 * restored into those the decide step prices with (src/daemon/restored-learners.ts); a row per
 * decision a learned response priced (version, evidence, explored); on the `learn` job, each placed
 * offer's fate once known (offer-fate.ts): accepted or funded teaches 1, rejected, lost or expired
 * 0; a dry run's offers teach nothing. Fate and learner state are written in one transaction, so a
 * restart resumes the posterior exactly and never learns a fate twice. Its route comes through
 * src/daemon/wing-surfaces.ts. The learning math is part of the one decide step the daemon and the
 * backtest's replay share and stays in the engine (src/engine/market/, src/engine/pricing/learned-price.ts);
 * the tables stay in the store (the paper book reads them), the figures in the status report
 * (src/ops/market-learning-status.ts). Left out, a learning strategy prices with its prior.
 */
import type { Clock } from '../clock/clock.js';
import type { Job } from '../clock/scheduler.js';
import type { LoanRequest } from '../domain/index.js';
import type { Decision, DecideOutcome } from '../engine/index.js';
import {
  learnedOfferOf,
  learningSummary,
  type MarketLearning,
  type LearnerState,
  type LearningObservation,
  type StoredLearnerState,
} from '../engine/market/index.js';
import type { Logger } from '../log/logger.js';
import { createMarketLearningRepository, type MarketLearningRepository } from '../store/market-learning-repository.js';
import { databaseOf, type Store } from '../store/index.js';

/** Offers looked at per pass; the rest wait for the next. */
const BATCH = 500;

/** What the wing reads of the daemon's parts (src/daemon/daemon-parts.ts); `learners`: the ones the decide step prices with. */
export interface MarketLearningParts {
  config: { jobs: { reconcile: string } };
  store: Store;
  log: Logger;
  dryRun: boolean;
  clocks: { market: Clock };
  active: { limits: () => { offerExpiryMs: number } };
  pipeline: { onDecided(listener: DecidedListener): void };
  learners: { restore(stored: { market: Array<[string, StoredLearnerState]> }): void; learning(): MarketLearning };
}

/** What the learners hear of a request the pipeline decided (src/daemon/decision-hooks.ts, DecisionListener). */
type DecidedListener = (
  request: LoanRequest,
  source: unknown,
  result: { action: string },
  turn: { outcome: Pick<DecideOutcome, 'decision'>; placement?: { kind: string } | undefined; decidedAtMs: number },
) => void;

/** What the store keeps per learner: its state, settings, and the summary status and the dashboard read. */
interface StoredLearnerJson extends StoredLearnerState {
  summary: unknown;
}

function isStoredLearner(value: unknown): value is StoredLearnerJson {
  const state = (value as { state?: Partial<LearnerState> } | null)?.state;
  const settings = (value as { settings?: unknown } | null)?.settings;
  return Array.isArray(state?.posterior?.mean) && Array.isArray(state?.posterior?.cov) && typeof settings === 'object' && settings !== null;
}

/** The learners stored in `store` (readable ones, as the daemon's learners restore them), and the strategies whose state is unreadable. */
export function storedLearners(store: Store): { market: Array<[string, StoredLearnerState]>; unreadable: string[] } {
  const market: Array<[string, StoredLearnerState]> = [];
  const unreadable: string[] = [];
  for (const row of createMarketLearningRepository(databaseOf(store)).learners()) {
    if (isStoredLearner(row.state)) market.push([row.strategy, { state: row.state.state, settings: row.state.settings }]);
    else unreadable.push(row.strategy);
  }
  return { market, unreadable };
}

export function attachMarketLearning(parts: MarketLearningParts): { jobs: Job[] } {
  const stored = storedLearners(parts.store);
  const fates = new MarketFates(parts);
  for (const strategy of stored.unreadable)
    fates.log.warn({ strategy }, 'stored market learner unreadable; it starts again from its prior');
  parts.learners.restore(stored);
  fates.attachTo(parts.pipeline, parts.dryRun);
  // Offer fates (accepted, rejected, lost, expired) teach learning strategies their market.
  return { jobs: [{ name: 'learn', schedule: parts.config.jobs.reconcile, run: async () => void fates.learnFates() }] };
}

class MarketFates {
  private readonly book: MarketLearningRepository;
  readonly log: Logger;

  constructor(private readonly parts: MarketLearningParts) {
    this.book = createMarketLearningRepository(databaseOf(parts.store));
    this.log = parts.log.child({ component: 'learn' });
  }

  /** Each decision the learners priced (through the decide context) is noted once recorded. A dry run's offers reach no borrower. */
  attachTo(pipeline: MarketLearningParts['pipeline'], dryRun: boolean): void {
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
    const { store, clocks, active } = this.parts;
    const nowMs = clocks.market.now();
    const expiryMs = active.limits().offerExpiryMs;
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
        if (this.parts.learners.learning().observe(row.strategy, row.observation as LearningObservation, accepted))
          this.save(row.strategy, nowMs);
        this.book.markLearned(row.loanRequestId, fate.fate, nowMs);
      });
      learnedCount += 1;
    }
    if (learnedCount > 0) this.log.info({ fates: learnedCount }, 'market response learned from offer fates');
    return learnedCount;
  }

  private save(strategy: string, atMs: number): void {
    const learner = this.parts.learners.learning().existing(strategy);
    if (learner === undefined) return;
    const json: StoredLearnerJson = { state: learner.snapshotState, settings: learner.settings, summary: learningSummary(learner) };
    this.book.saveLearner(strategy, learner.version, learner.evidence, json, atMs);
  }
}
