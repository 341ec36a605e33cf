/**
 * A trial to score, what every trial of a tuning run shares, and what scoring one gives: the
 * in-process evaluator (trial-evaluator.ts), the column path (column-trials.ts), the workers and
 * the halving rungs (successive-halving.ts) all read them, so they import none of each other.
 */
import type { CompiledStrategy } from '../../engine/index.js';
import type { BacktestSummary } from '../backtest-result.js';
import type { BacktestOptions } from '../run-backtest.js';
import type { ObjectiveSettings } from './objectives.js';
import type { ParamValues } from './param-space.js';
import type { TimeWindow } from './time-splits.js';

/** One trial's param set on one window's training or held-out period. */
export interface TrialTask {
  trial: number;
  window: number;
  part: 'train' | 'test';
  /** A training trial of a halving rung: replayed on the rung's part of the period (successive-halving.ts); absent: the whole period. */
  rung?: number;
  /** A held-out run in a borrower world (an index into WORLD_NAMES, held-out-worlds.ts); absent: under the assumed take-up curve. */
  world?: number;
}

/** Everything a trial needs besides its task; workers rebuild the same from their init data. */
export interface TrialContext {
  strategy: CompiledStrategy;
  windows: readonly TimeWindow[];
  trials: readonly ParamValues[];
  backtest: BacktestOptions;
  objective: ObjectiveSettings;
  /** Per halving rung, the share of a training period its trials replay (its most recent part). */
  rungShares?: readonly number[];
}

/** The figures of a trial a tune report shows. */
export type TrialFigures = Pick<BacktestSummary, 'netAnnualizedReturn' | 'maxDrawdown' | 'defaultRate' | 'offers' | 'funded' | 'netCents'>;

export interface TrialOutcome extends TrialTask {
  score: number;
  figures: TrialFigures;
  /** The backtest's span in years (first request to last cash flow): its return's denominator. */
  years: number;
  /** Held-out runs only: each request's contribution to the net in cents, in replay order. */
  requestNetCents?: number[];
}

export interface TrialEvaluator {
  /** Scores `tasks`; `onDone` is called after each, for progress. Results are in task order. */
  evaluate(tasks: readonly TrialTask[], onDone: () => void): Promise<TrialOutcome[]>;
  close(): Promise<void>;
}
