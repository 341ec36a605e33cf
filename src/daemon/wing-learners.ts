/**
 * The learners the wings stored, which `lendbot strategy explain --db` restores to price as the
 * daemon would, each wing named once here. Kept apart from wing-parts.ts, which reading the
 * configuration loads (every command does): these load the store and its database driver, which
 * `lendbot backtest` must not (test/cli/command-modules.test.ts). Deleting a wing's folder, its
 * entry here and its attach line removes it (test/layout/learning-wings.test.ts).
 */
import { storedCalibrations } from '../calibration/calibration-fates.js';
import { storedLearners } from '../market-learning/market-fates.js';
import type { Store } from '../store/index.js';
import type { StoredLearners } from './restored-learners.js';

/** The learners a wing stored, as it restores them when it attaches: what, read how, and what prices in place of an unreadable one. */
export const WING_LEARNERS: readonly { what: string; instead: string; read(store: Store): StoredLearners & { unreadable: string[] } }[] = [
  { what: 'learned market', instead: 'its configured market', read: storedLearners },
  { what: 'learned default level', instead: 'its prior', read: storedCalibrations },
];
