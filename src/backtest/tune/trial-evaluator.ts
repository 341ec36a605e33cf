/**
 * Scoring trials: one trial is a backtest of the strategy with one param set on one window's
 * training or held-out period. The in-process evaluator runs them one after another; the worker
 * pool (worker-pool.ts) spreads the same tasks over threads and returns the same numbers.
 * A held-out run also keeps each request's contribution to the net, for the paired comparison
 * of the candidate with the current values (held-out-comparison.ts).
 */
import { runBacktest } from '../run-backtest.js';
import { columnRunner, trialGroupKey } from './column-trials.js';
import { objectiveScore } from './objectives.js';
import type { TrialContext, TrialEvaluator, TrialOutcome, TrialTask } from './trial-context.js';
import { trialPeriod } from './rung-periods.js';
import { windowWorld } from './held-out-worlds.js';

export type { TrialContext, TrialEvaluator, TrialFigures, TrialOutcome, TrialTask } from './trial-context.js';

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

/** Runs one task as a full backtest (what the column path must agree with), in its borrower world when it names one. */
export function runTrialByBacktest(context: TrialContext, task: TrialTask): TrialOutcome {
  const params = context.trials[task.trial];
  if (!params) throw new RangeError(`no trial ${task.trial}`);
  const strategy = context.strategy.withParams(params);
  const heldOut = task.part === 'test';
  const world = task.world === undefined ? {} : { world: windowWorld(context, task.window, task.world) };
  const result = runBacktest(trialPeriod(context, task), [strategy], {
    ...context.backtest,
    ...world,
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
