/**
 * A trial to score and what every trial of a tuning run shares: the in-process evaluator
 * (trial-evaluator.ts), the column path (column-trials.ts) and the workers read both.
 */
import type { CompiledStrategy } from '../../engine/index.js';
import type { BacktestOptions } from '../run-backtest.js';
import type { ObjectiveSettings } from './objectives.js';
import type { ParamValues } from './param-space.js';
import type { TimeWindow } from './time-splits.js';

/** One trial's param set on one window's training or held-out period. */
export interface TrialTask {
  trial: number;
  window: number;
  part: 'train' | 'test';
}

/** Everything a trial needs besides its task; workers rebuild the same from their init data. */
export interface TrialContext {
  strategy: CompiledStrategy;
  windows: readonly TimeWindow[];
  trials: readonly ParamValues[];
  backtest: BacktestOptions;
  objective: ObjectiveSettings;
}
