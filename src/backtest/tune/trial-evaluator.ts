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
import { columnRunner, trialGroupKey } from './column-trials.js';
import { objectiveScore, type ObjectiveSettings } from './objectives.js';
import type { ParamValues } from './param-space.js';
import type { TimeWindow } from './time-splits.js';
import { trialPeriod } from './rung-periods.js';

export interface TrialTask {
  trial: number;
  window: number;
  part: 'train' | 'test';
  /** A training trial of a halving rung: replayed on the rung's part of the period (successive-halving.ts); absent: the whole period. */
  rung?: number;
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
  /** Per halving rung, the share of a training period its trials replay (its most recent part). */
  rungShares?: readonly number[];
}

/**
 * Runs one task: a training trial over columns when the strategy allows it (column-trials.ts,
 * the same figures as a backtest), otherwise, and always for held-out runs, a full backtest.
 */
export function runTrial(context: TrialContext, task: TrialTask): TrialOutcome {
  const runner = task.part === 'train' ? columnRunner(context, task.window, task.rung) : null;
  const params = context.trials[task.trial];
  if (!runner || !params) return runTrialByBacktest(context, task);
  const { years, ...figures } = runner.run(params);
  return { ...task, score: objectiveScore(figures, context.objective), figures, years };
}

/** Runs one task as a full backtest (what the column path must agree with). */
export function runTrialByBacktest(context: TrialContext, task: TrialTask): TrialOutcome {
  const params = context.trials[task.trial];
  if (!params) throw new RangeError(`no trial ${task.trial}`);
  const strategy = context.strategy.withParams(params);
  const heldOut = task.part === 'test';
  const result = runBacktest(trialPeriod(context, task), [strategy], {
    ...context.backtest,
    recordDecisions: false,
    recordContributions: heldOut,
  });
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

/**
 * The indexes of `tasks` in groups whose trials share their prices (column-trials.ts's
 * trialGroupKey), the largest group first, then in order of first appearance.
 */
export function groupTasks(context: TrialContext, tasks: readonly TrialTask[]): number[][] {
  const groups = new Map<string, number[]>();
  tasks.forEach((task, index) => {
    const key = trialGroupKey(context, task);
    const group = groups.get(key);
    if (group) group.push(index);
    else groups.set(key, [index]);
  });
  return [...groups.values()].sort((a, b) => b.length - a.length || (a[0] as number) - (b[0] as number));
}

/** Evaluates in this thread: for few trials, where starting workers would cost more than it saves. */
export function inProcessEvaluator(context: TrialContext): TrialEvaluator {
  return {
    evaluate(tasks, onDone) {
      const outcomes = new Array<TrialOutcome>(tasks.length);
      for (const group of groupTasks(context, tasks)) {
        for (const index of group) {
          outcomes[index] = runTrial(context, tasks[index] as TrialTask);
          onDone();
        }
      }
      return Promise.resolve(outcomes);
    },
    close: () => Promise.resolve(),
  };
}
