/**
 * The learned default level's wing (`score.calibration: { method: learned }`; docs/market-model.md,
 * "Learning the default level"), attached in one call (attachCalibration, as attachOps is): the
 * learners the last run stored, restored into those the decide step prices with
 * (src/daemon/restored-learners.ts); on the `learn-defaults` job, what the syncs stored of each
 * loan a learned level priced: a payment marked paid is an instalment survived; a missed one, or
 * the collection or default list, its default (at the instalment after the last paid); the
 * completed list repays it. A learner whose evidence changed refits (at most once a day) and is
 * saved with what was fed in one transaction (its own tables, the migrations in the store): a
 * restart resumes it and feeds nothing twice. Its route comes through src/daemon/wing-surfaces.ts.
 * The math stays in the engine, part of the one decide step the daemon and the replay share
 * (src/engine/market/, src/engine/compile/learned-calibration.ts); predicted against realised
 * default (src/ops/calibration.ts) and its drift protection stay in ops. Left out, the prior prices.
 */
import type { Clock } from '../clock/clock.js';
import type { Job } from '../clock/scheduler.js';
import type { CalibrationLearners, CalibrationState, MarketLearning, StoredCalibration } from '../engine/market/index.js';
import type { Logger } from '../log/logger.js';
import {
  createCalibrationLearningRepository,
  type CalibrationLearningRepository,
  type CalibrationLoanRow,
} from './calibration-learning-repository.js';
import { databaseOf, type Store } from '../store/index.js';

function isStoredCalibration(value: unknown): value is StoredCalibration {
  const state = (value as { state?: Partial<CalibrationState> } | null)?.state;
  const settings = (value as { settings?: unknown } | null)?.settings;
  return (
    Array.isArray(state?.posterior?.mean) &&
    Array.isArray(state?.running) &&
    Array.isArray(state?.finished) &&
    typeof settings === 'object' &&
    settings !== null
  );
}

/** The calibration learners stored in `store` (readable ones), and the strategies whose state is unreadable. */
export function storedCalibrations(store: Store): { calibrations: Array<[string, StoredCalibration]>; unreadable: string[] } {
  const calibrations: Array<[string, StoredCalibration]> = [];
  const unreadable: string[] = [];
  for (const row of createCalibrationLearningRepository(databaseOf(store)).learners()) {
    if (isStoredCalibration(row.state)) calibrations.push([row.strategy, row.state]);
    else unreadable.push(row.strategy);
  }
  return { calibrations, unreadable };
}

/** What the wing reads of the daemon's parts (src/daemon/daemon-parts.ts); `learners`: the ones the decide step prices with. */
export interface CalibrationParts {
  config: { jobs: { reconcile: string } };
  store: Store;
  log: Logger;
  clocks: { market: Clock };
  learners: { restore(stored: { calibrations: Array<[string, StoredCalibration]> }): void; learning(): MarketLearning };
}

export function attachCalibration(parts: CalibrationParts): { jobs: Job[] } {
  const log = parts.log.child({ component: 'learn' });
  const stored = storedCalibrations(parts.store);
  for (const strategy of stored.unreadable)
    log.warn({ strategy }, 'stored default-level learner unreadable; it starts again from its prior');
  parts.learners.restore(stored);
  const feeder = new CalibrationFeeder(parts.store, () => parts.learners.learning().calibration, log);
  // On the account sync's schedule: what it stored of the loans' payments is fed.
  return {
    jobs: [{ name: 'learn-defaults', schedule: parts.config.jobs.reconcile, run: async () => void feeder.feed(parts.clocks.market.now()) }],
  };
}

/** The score's default before the learned calibration, from a decision's calibration_json. */
function scoreDefaultOf(calibration: unknown): number | undefined {
  const value = (calibration as { scoreDefault?: unknown } | null)?.scoreDefault;
  return typeof value === 'number' && value > 0 && value < 1 ? value : undefined;
}

class CalibrationFeeder {
  private readonly book: CalibrationLearningRepository;
  /** Requests in each learner's anchor relation when it was last saved: grown ones are saved too. */
  private readonly savedRelation = new Map<string, number>();

  constructor(
    store: Store,
    private readonly learners: () => CalibrationLearners,
    private readonly log: Logger,
  ) {
    this.book = createCalibrationLearningRepository(databaseOf(store));
  }

  /** Feeds what the store learned since the last pass, refits and saves; returns how many loans moved. */
  feed(nowMs: number): number {
    let moved = 0;
    const touched = new Set<string>();
    this.book.transaction(() => {
      for (const row of this.book.loansToFeed()) {
        if (this.feedLoan(row, nowMs)) {
          moved += 1;
          touched.add(row.strategy);
        }
      }
      for (const strategy of this.learners().refitDue(nowMs)) touched.add(strategy);
      for (const [strategy, learner] of this.learners().entries())
        if ((learner.anchorRelation?.n ?? 0) !== (this.savedRelation.get(strategy) ?? 0)) touched.add(strategy);
      for (const strategy of touched) this.save(strategy, nowMs);
    });
    if (moved > 0) this.log.info({ loans: moved }, 'default level learned from loan payments');
    return moved;
  }

  /** Saves a learner as it is now (the daemon saves after feeding; a test may seed one). */
  save(strategy: string, atMs: number): void {
    const learner = this.learners().existing(strategy);
    if (learner === undefined) return;
    const stored: StoredCalibration = { state: learner.snapshotState, settings: learner.settings };
    this.savedRelation.set(strategy, learner.anchorRelation?.n ?? 0);
    this.book.saveLearner(strategy, { version: learner.version, ...learner.evidence, state: stored }, atMs);
  }

  private feedLoan(row: CalibrationLoanRow, nowMs: number): boolean {
    const learner = this.learners().existing(row.strategy);
    const scoreDefault = scoreDefaultOf(row.calibration);
    // A strategy no longer loaded (its learner not made since the start), or a loan without a term: wait.
    if (learner === undefined || scoreDefault === undefined || row.term === null) return false;
    const key = String(row.loanRequestId);
    const term = row.term;
    if (row.fedPaid === null) learner.funded(key, scoreDefault, term);
    const paid = Math.min(row.paid, term);
    const fedPaid = row.fedPaid ?? 0;
    const defaulted = row.missed > 0 || row.listStatus === 'collection' || row.listStatus === 'default';
    const completed = !defaulted && row.listStatus === 'completed';
    if (paid > fedPaid && !completed) learner.paid(key, paid);
    let final: 'defaulted' | 'completed' | null = null;
    if (defaulted) {
      learner.defaulted(key, paid + 1);
      final = 'defaulted';
    } else if (completed) {
      learner.paid(key, term);
      final = 'completed';
    }
    const changed = row.fedPaid === null || paid > fedPaid || final !== null;
    if (changed) this.book.markFed({ loanId: row.loanId, strategy: row.strategy, paid: final === 'completed' ? term : paid, final }, nowMs);
    return changed;
  }
}
