/**
 * Scoring trials: one trial is a backtest of the strategy with one param set on one window's
 * training or held-out period. The in-process evaluator runs them one after another; the worker
 * pool (worker-pool.ts) spreads the same tasks over threads and returns the same numbers.
 * A held-out run also keeps each request's contribution to the net, for the paired comparison
 * of the candidate with the current values (held-out-comparison.ts).
 */
import type { CompiledStrategy } from '../../engine/index.js';
import type { BacktestSummary } from '../backtest-result.js';
import { runBacktest, type BacktestOptions } from '../run-backtest.js';
import { objectiveScore, type ObjectiveSettings } from './objectives.js';
import type { ParamValues } from './param-space.js';
import type { TimeWindow } from './time-splits.js';

export interface TrialTask {
  trial: number;
  window: number;
  part: 'train' | 'test';
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

/** Everything a trial needs besides its task; workers rebuild the same from their init data. */
export interface TrialContext {
  strategy: CompiledStrategy;
  windows: readonly TimeWindow[];
  trials: readonly ParamValues[];
  backtest: BacktestOptions;
  objective: ObjectiveSettings;
}

/** Runs one task. */
export function runTrial(context: TrialContext, task: TrialTask): TrialOutcome {
  const window = context.windows[task.window];
  const params = context.trials[task.trial];
  if (!window || !params) throw new RangeError(`no trial ${task.trial} or window ${task.window}`);
  const strategy = context.strategy.withParams(params);
  const heldOut = task.part === 'test';
  const result = runBacktest(heldOut ? window.test : window.train, [strategy], { ...context.backtest, recordDecisions: false, recordContributions: heldOut });
  const { summary } = result;
  const { netAnnualizedReturn, maxDrawdown, defaultRate, offers, funded, netCents } = summary;
  return {
    ...task,
    score: objectiveScore(summary, context.objective),
    figures: { netAnnualizedReturn, maxDrawdown, defaultRate, offers, funded, netCents },
    years: result.period.years,
    ...(heldOut ? { requestNetCents: result.requestNetCents } : {}),
  };
}

/** Evaluates in this thread: for few trials, where starting workers would cost more than it saves. */
export function inProcessEvaluator(context: TrialContext): TrialEvaluator {
  return {
    evaluate(tasks, onDone) {
      return Promise.resolve(
        tasks.map((task) => {
          const outcome = runTrial(context, task);
          onDone();
          return outcome;
        }),
      );
    },
    close: () => Promise.resolve(),
  };
}
