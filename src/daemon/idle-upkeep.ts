/**
 * What the pipeline does once no request waits, so that it never delays one on its way to an
 * offer: bring the guard's store figures up to date with the last request's writes, and
 * checkpoint the store's WAL after a quiet moment.
 */
import type { Clock } from '../clock/clock.js';
import type { Logger } from '../log/logger.js';
import { snapshotFromStore, type RiskLimits } from '../risk/index.js';
import type { Store } from '../store/index.js';

/** Real milliseconds without a request after which the store's WAL is checkpointed, by default. */
const IDLE_CHECKPOINT_MS = 1_000;

export interface IdleUpkeepDeps {
  store: Store;
  clock: Clock;
  log: Logger;
  limits: () => RiskLimits;
  dryRun: boolean;
  /** How many requests are in the pipeline now (its queue's size). */
  inFlight: () => number;
  checkpointAfterMs?: number | undefined;
}

export class IdleUpkeep {
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(private readonly deps: IdleUpkeepDeps) {}

  /** A request arrives: the pending checkpoint waits for the next quiet moment. */
  requestArrived(): void {
    clearTimeout(this.idleTimer);
  }

  /** The last request in the pipeline is done: prepare the guard's figures, then checkpoint when quiet. */
  pipelineEmptied(): void {
    this.prepareGuardFigures();
    this.checkpointWhenQuiet();
  }

  /**
   * Brings the guard's store figures up to date with the writes of the request just decided (the
   * open-offer book takes them in and keeps its answers: src/store/open-offer-book.ts), so the
   * next request's guard finds them ready instead of counting them on its way to the offer.
   * Nothing is kept from here but the book's own state: the guard still asks the store afresh,
   * and the book answers from what it holds only while nothing changed.
   */
  private prepareGuardFigures(): void {
    setImmediate(() => {
      if (this.deps.inFlight() > 0) return;
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
  private checkpointWhenQuiet(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      if (this.deps.inFlight() > 0) return;
      try {
        this.deps.store.checkpoint();
      } catch (error) {
        // The next idle moment (or SQLite's own backstop) tries again.
        this.deps.log.warn({ err: error }, 'WAL checkpoint failed');
      }
    }, this.deps.checkpointAfterMs ?? IDLE_CHECKPOINT_MS);
    this.idleTimer.unref();
  }
}
