/**
 * The learners the decide step prices with (the engine's MarketLearning), made at the first
 * decision from what the wings restored as they attached: the market learners of
 * src/market-learning/, the default-level learners of src/calibration/. A wing left out restores
 * and feeds nothing, so its strategies price with their prior.
 */
import { MarketLearning, type StoredCalibration, type StoredLearnerState } from '../engine/market/index.js';

/** What a wing restored from its table, by strategy name. */
export interface StoredLearners {
  market?: ReadonlyArray<readonly [string, StoredLearnerState]>;
  calibrations?: ReadonlyArray<readonly [string, StoredCalibration]>;
}

export class RestoredLearners {
  private readonly stored: StoredLearners[] = [];
  private made: MarketLearning | undefined;

  /** Only before the first decision (the wings attach before the daemon starts). */
  restore(stored: StoredLearners): void {
    if (this.made !== undefined) throw new Error('learners restored after the first decision priced with them');
    this.stored.push(stored);
  }

  learning(): MarketLearning {
    this.made ??= new MarketLearning(
      this.stored.flatMap((wing) => wing.market ?? []),
      this.stored.flatMap((wing) => wing.calibrations ?? []),
    );
    return this.made;
  }
}
