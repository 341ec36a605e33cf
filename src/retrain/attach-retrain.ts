/**
 * Retraining while live, attached to the daemon's built parts in one call (as attachOps is):
 * it lays its managed versions and shadow candidates over the strategy files through the
 * parts' strategy layer, and brings its job. Deleting src/retrain/ and the attach line removes it.
 */
import type { Clock } from '../clock/clock.js';
import type { Job } from '../clock/scheduler.js';
import type { CompiledStrategy, StrategyLayer } from '../engine/index.js';
import type { Logger } from '../log/logger.js';
import type { SplitSettings } from '../risk/risk-limits.js';
import { createRetrainRepository, databaseOf, type Store } from '../store/index.js';
import { ManagedStrategies } from './managed-strategies.js';
import { retrainSettings, type RetrainSection } from './retrain-config.js';
import { RetrainLoop } from './retrain-loop.js';

/** What retraining reads of the daemon's built parts (src/daemon/daemon-parts.ts). */
export interface RetrainParts {
  /** `jobs.retrain`: the schedule of the loop's look (a cron expression, or off). */
  config: { retrain: RetrainSection; jobs: { retrain: string } };
  store: Store;
  log: Logger;
  clocks: { market: Clock };
  /** The strategies the files gave, the layer retraining lays its versions over, and the limits in force. */
  active: {
    fileStrategies: () => readonly CompiledStrategy[];
    layer: StrategyLayer;
    limits: () => { offerExpiryMs: number; split?: SplitSettings | undefined };
  };
  /** Runs work between two requests. */
  pipeline: { exclusive<T>(work: () => Promise<T>): Promise<T> };
}

export interface Retraining {
  jobs: Job[];
  /** Lays the versions in force over the files before the first request is decided. */
  start(): Promise<void>;
}

export function attachRetrain(parts: RetrainParts): Retraining {
  const log = parts.log.child({ component: 'retrain' });
  const { fileStrategies, limits } = parts.active;
  const repo = createRetrainRepository(databaseOf(parts.store));
  const managed = new ManagedStrategies(repo, log, () => limits().split?.strategies ?? []);
  parts.active.layer.over = (files) => managed.over(files);
  const swap = (apply: () => void): Promise<void> => parts.pipeline.exclusive(async () => apply());
  const loop = new RetrainLoop({
    store: parts.store,
    repo,
    clock: parts.clocks.market,
    settings: retrainSettings(parts.config.retrain),
    get offerExpiryMs() {
      return limits().offerExpiryMs;
    },
    get split() {
      return limits().split;
    },
    log,
    managed,
    fileStrategies,
    swap,
  });
  return {
    jobs: [{ name: 'retrain', schedule: parts.config.jobs.retrain, run: () => loop.tick() }],
    async start() {
      await managed.refresh(fileStrategies(), swap);
    },
  };
}
