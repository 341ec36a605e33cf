/**
 * Scoring trials: one trial is a backtest of the strategy with one param set on one window's
 * training or held-out period. Trials that are full backtests of one period run in bundles, in
 * lockstep (runTrialsByBacktest), each with the outcome it has alone. The in-process evaluator
 * runs the groups one after another; the worker pool (worker-pool.ts) spreads the same groups
 * over threads and returns the same numbers.
 * A held-out run also keeps each request's contribution to the net, for the paired comparison
 * of the candidate with the current values (held-out-comparison.ts).
 */
import { runBacktestsTogether } from '../run-backtest.js';
import { columnRunner, overColumns, trialGroupKey } from './column-trials.js';
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
  return runTrialsByBacktest(context, [task])[0] as TrialOutcome;
}

/**
 * Runs tasks of one period as full backtests in lockstep (runBacktestsTogether): each request is
 * built from the compact recording once for all of them and the strategy's features computed once
 * (the param sets share its feature table), while each replay keeps its own state, so each
 * outcome is the one runTrialByBacktest gives alone (test/backtest/tune-trials-together.test.ts).
 */
export function runTrialsByBacktest(context: TrialContext, tasks: readonly TrialTask[]): TrialOutcome[] {
  const first = tasks[0];
  if (first === undefined) return [];
  const period = trialPeriod(context, first);
  const runs = tasks.map((task) => {
    if (trialPeriod(context, task) !== period) throw new RangeError('trials run together replay one period');
    const params = context.trials[task.trial];
    if (!params) throw new RangeError(`no trial ${task.trial}`);
    const world = task.world === undefined ? {} : { world: windowWorld(context, task.window, task.world) };
    const options = { ...context.backtest, ...world, recordDecisions: false, recordContributions: task.part === 'test' };
    return { strategies: [context.strategy.withParams(params)], options };
  });
  return runBacktestsTogether(period, runs).map((result, index) => {
    const task = tasks[index] as TrialTask;
    const { summary } = result;
    const { netAnnualizedReturn, maxDrawdown, defaultRate, offers, funded, netCents } = summary;
    return {
      ...task,
      score: objectiveScore(summary, context.objective),
      figures: { netAnnualizedReturn, maxDrawdown, defaultRate, offers, funded, netCents },
      years: result.period.years,
      ...(task.part === 'test' ? { requestNetCents: result.requestNetCents } : {}),
    };
  });
}

/**
 * At most this many full-backtest tasks of one period are replayed together by one thread:
 * building each request from the compact recording and computing its features took about 30 %
 * of a trial's CPU, and is shared by all of them (docs/performance.md has the figures).
 * Each replay holds its own state (its offers, loans and learners' evidence: 5 to 10 bytes a
 * request of the period) until its bundle ends.
 */
export const TRIALS_TOGETHER = 8;

/** The outcomes of one group of groupTasks, in the group's order. */
export function runGroup(context: TrialContext, tasks: readonly TrialTask[], group: readonly number[]): TrialOutcome[] {
  const members = group.map((index) => tasks[index] as TrialTask);
  const first = members[0];
  if (first === undefined) return [];
  if (overColumns(context, first)) return members.map((task) => runTrial(context, task));
  return runTrialsByBacktest(context, members);
}

/**
 * The indexes of `tasks` in groups, the largest group first, then in order of first appearance:
 * training trials over columns grouped by the prices they share (column-trials.ts's
 * trialGroupKey); full backtests of one period in bundles of at most TRIALS_TOGETHER, run
 * together (runGroup), as many bundles as keep `threads` threads equally busy.
 */
export function groupTasks(context: TrialContext, tasks: readonly TrialTask[], threads = 1): number[][] {
  const groups = new Map<string, number[]>();
  tasks.forEach((task, index) => {
    const key = overColumns(context, task) ? trialGroupKey(context, task) : `${task.part} ${task.window} ${task.rung ?? 'all'} together`;
    const group = groups.get(key);
    if (group) group.push(index);
    else groups.set(key, [index]);
  });
  const cut = [...groups].flatMap(([key, group]) => (key.endsWith(' together') ? bundles(group, threads) : [group]));
  return cut.sort((a, b) => b.length - a.length || (a[0] as number) - (b[0] as number));
}

/**
 * `items` in bundles of at most TRIALS_TOGETHER whose count is a multiple of `threads` (when
 * there are enough), of sizes differing by one at most: 40 trials on 2 threads make 6 bundles
 * of 6 or 7, not 5 of 8, of which one thread would replay 3 while the other waits.
 */
function bundles(items: readonly number[], threads: number): number[][] {
  const count = Math.min(items.length, threads * Math.ceil(items.length / (threads * TRIALS_TOGETHER)));
  const cut: number[][] = [];
  for (let k = 0, start = 0; k < count; k += 1) {
    const end = start + Math.floor(items.length / count) + (k < items.length % count ? 1 : 0);
    cut.push(items.slice(start, end));
    start = end;
  }
  return cut;
}

/** Evaluates in this thread: for few trials, where starting workers would cost more than it saves. */
export function inProcessEvaluator(context: TrialContext): TrialEvaluator {
  return {
    evaluate(tasks, onDone) {
      const outcomes = new Array<TrialOutcome>(tasks.length);
      for (const group of groupTasks(context, tasks)) {
        runGroup(context, tasks, group).forEach((outcome, k) => {
          outcomes[group[k] as number] = outcome;
          onDone();
        });
      }
      return Promise.resolve(outcomes);
    },
    close: () => Promise.resolve(),
  };
}
