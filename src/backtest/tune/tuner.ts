/**
 * `lendbot tune`: random search over the params a strategy declares. Every trial is scored on
 * the training period(s); the best few are then scored on the held-out period(s) next to the
 * strategy's current values, so overfitting shows: a gain that holds out is kept, one that only
 * fits the past is reported as such and the current values are kept.
 */
import type { CompiledStrategy } from '../../engine/index.js';
import { sliceRecording, type PreparedRecording } from '../prepared-recording.js';
import type { BacktestOptions } from '../run-backtest.js';
import type { ObjectiveSettings } from './objectives.js';
import { sampleTrials, type ParamValues } from './param-space.js';
import { seededRandom } from './seeded-random.js';
import { timeWindows, type SplitSpec } from './time-splits.js';
import { inProcessEvaluator, runTrial, type TrialContext, type TrialEvaluator, type TrialFigures, type TrialOutcome, type TrialTask } from './trial-evaluator.js';

export interface TuneOptions {
  trials: number;
  seed: number;
  objective: ObjectiveSettings;
  split: SplitSpec;
  backtest: BacktestOptions;
  /** How many of the best training trials are also scored on the held-out period. */
  top?: number;
  /**
   * The share of the training gain (per request) the held-out gain must keep to count as real
   * (default 0.5): on noise, the best of many trials gains in training by luck and keeps none.
   */
  minKeptShare?: number;
  onProgress?: (done: number, total: number) => void;
  /** Builds the evaluator (the worker pool); in-process when absent. */
  evaluator?: (context: TrialContext) => TrialEvaluator;
}

export interface RankedTrial {
  trial: number;
  params: ParamValues;
  train: number;
  test: number | null;
  trainFigures: TrialFigures;
  testFigures: TrialFigures | null;
}

export interface WindowReport {
  trainFrom: string | null;
  trainTo: string | null;
  testFrom: string | null;
  testTo: string | null;
  trainRequests: number;
  testRequests: number;
  baseline: RankedTrial;
  /** The best trials by training score, best first, with their held-out scores. */
  top: RankedTrial[];
}

export interface TuneReport {
  strategy: { name: string; contentHash: string; file: string };
  objective: ObjectiveSettings;
  seed: number;
  trials: number;
  split: SplitSpec;
  windows: WindowReport[];
  /** Mean over windows of (best − current) on the training and the held-out periods. */
  trainGain: number;
  heldOutGain: number;
  /** Held-out gain per request over training gain per request; a real gain keeps most of it. */
  keptShare: number;
  /** Paired t of the held-out gain over blocks of the held-out period; 2 or more counts as real. */
  heldOutT: number;
  improved: boolean;
  verdict: string;
  /** The values to write: the last window's best when improved, else the current ones. */
  chosen: ParamValues;
  baselineParams: ParamValues;
}

export async function tune(recording: PreparedRecording, strategy: CompiledStrategy, options: TuneOptions): Promise<TuneReport> {
  const trials = sampleTrials(strategy.paramSpecs, strategy.params, Math.max(1, options.trials), seededRandom(options.seed));
  const windows = timeWindows(recording, options.split);
  const context: TrialContext = { strategy, windows, trials, backtest: options.backtest, objective: options.objective };
  const evaluator = (options.evaluator ?? inProcessEvaluator)(context);
  const top = Math.min(options.top ?? 5, trials.length);
  const total = trials.length * windows.length + windows.length * (top + 1);
  let done = 0;
  const tick = (): void => options.onProgress?.(++done, total);
  try {
    const trainTasks: TrialTask[] = windows.flatMap((_, window) => trials.map((__, trial) => ({ trial, window, part: 'train' as const })));
    const train = await evaluator.evaluate(trainTasks, tick);
    const byWindow = windows.map((_, window) =>
      train.filter((o) => o.window === window).sort((a, b) => b.score - a.score || a.trial - b.trial),
    );
    const testTasks: TrialTask[] = byWindow.flatMap((ranked, window) => {
      const picks = new Set([0, ...ranked.slice(0, top).map((o) => o.trial)]);
      return [...picks].map((trial) => ({ trial, window, part: 'test' as const }));
    });
    const test = await evaluator.evaluate(testTasks, tick);
    options.onProgress?.(total, total);
    const reports = windows.map((window, index): WindowReport => {
      const ranked = byWindow[index] ?? [];
      const rank = (outcome: TrialOutcome): RankedTrial => {
        const held = test.find((t) => t.window === index && t.trial === outcome.trial);
        return { trial: outcome.trial, params: trials[outcome.trial] ?? {}, train: outcome.score, test: held?.score ?? null, trainFigures: outcome.figures, testFigures: held?.figures ?? null };
      };
      const baseline = ranked.find((o) => o.trial === 0);
      if (!baseline) throw new Error('the baseline trial was not evaluated');
      const first = window.train.entries[0];
      return {
        trainFrom: first?.seenAt ?? null,
        trainTo: window.train.entries.at(-1)?.seenAt ?? null,
        testFrom: window.test.entries[0]?.seenAt ?? null,
        testTo: window.test.entries.at(-1)?.seenAt ?? null,
        trainRequests: window.train.entries.length,
        testRequests: window.test.entries.length,
        baseline: rank(baseline),
        top: ranked.slice(0, top).map(rank),
      };
    });
    return summarize(reports, blockGains(context, reports), strategy, trials, options);
  } finally {
    await evaluator.close();
  }
}

const BLOCKS = 10;

/**
 * The held-out gain of each window's best trial over the current values, measured on up to ten
 * consecutive blocks of the held-out period, so its spread can be told from luck (a paired test).
 */
function blockGains(context: TrialContext, windows: readonly WindowReport[]): number[] {
  const gains: number[] = [];
  windows.forEach((report, index) => {
    const window = context.windows[index];
    const best = report.top[0];
    if (!window || !best) return;
    const n = window.test.entries.length;
    const blocks = Math.min(BLOCKS, n);
    for (let b = 0; b < blocks; b += 1) {
      const block = sliceRecording(window.test, Math.floor((b * n) / blocks), Math.floor(((b + 1) * n) / blocks));
      const blockContext: TrialContext = { ...context, windows: [{ train: block, test: block }] };
      const score = (trial: number): number => runTrial(blockContext, { trial, window: 0, part: 'test' }).score;
      gains.push(score(best.trial) - score(0));
    }
  });
  return gains;
}

/** Student's t of the mean of `values` (0 when it cannot be told). */
function tStatistic(values: readonly number[]): number {
  const n = values.length;
  if (n < 2) return 0;
  const mean = values.reduce((a, b) => a + b, 0) / n;
  const variance = values.reduce((sum, v) => sum + (v - mean) ** 2, 0) / (n - 1);
  if (variance === 0) return mean > 0 ? Number.POSITIVE_INFINITY : 0;
  return mean / Math.sqrt(variance / n);
}

/** The t a held-out gain needs to count as real (about a one-sided 5% level). */
const MIN_T = 2;

function summarize(windows: WindowReport[], gains: readonly number[], strategy: CompiledStrategy, trials: readonly ParamValues[], options: TuneOptions): TuneReport {
  const mean = (values: number[]): number => (values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length);
  const trainGain = mean(windows.map((w) => (w.top[0]?.train ?? 0) - w.baseline.train));
  const heldOutGain = mean(windows.map((w) => (w.top[0]?.test ?? 0) - (w.baseline.test ?? 0)));
  // Returns on a fixed starting balance grow with the number of requests a period holds, so the
  // gains are compared per request: a held-out period shorter than the training one keeps the
  // same share of a real gain.
  const perRequestTrain = mean(windows.map((w) => ((w.top[0]?.train ?? 0) - w.baseline.train) / Math.max(1, w.trainRequests)));
  const perRequestHeld = mean(windows.map((w) => ((w.top[0]?.test ?? 0) - (w.baseline.test ?? 0)) / Math.max(1, w.testRequests)));
  const keptShare = perRequestTrain > 0 ? perRequestHeld / perRequestTrain : 0;
  const keep = options.minKeptShare ?? 0.5;
  const t = tStatistic(gains);
  const improved = heldOutGain > 0 && keptShare >= keep && t >= MIN_T;
  const baselineParams = { ...(trials[0] ?? {}) };
  const last = windows.at(-1)?.top[0];
  const chosen = improved && last ? { ...last.params } : baselineParams;
  const fmt = (v: number): string => `${(v * 100).toFixed(2)} points`;
  let verdict: string;
  if (improved) verdict = `improved: +${fmt(trainGain)} in training, +${fmt(heldOutGain)} held out (${Math.round(keptShare * 100)}% of the training gain per request kept, t ${Number.isFinite(t) ? t.toFixed(2) : 'inf'})`;
  else if (trainGain <= 0) verdict = 'no trial beat the current values in training; keeping them';
  else if (heldOutGain > 0 && keptShare >= keep) verdict = `not shown: +${fmt(trainGain)} in training, +${fmt(heldOutGain)} held out, but block by block the held-out gain is within luck (t ${t.toFixed(2)} < ${MIN_T}); keeping the current values`;
  else verdict = `overfit: +${fmt(trainGain)} in training but ${heldOutGain >= 0 ? '+' : ''}${fmt(heldOutGain)} held out, ${Math.round(keptShare * 100)}% of the training gain per request (needs ${Math.round(keep * 100)}%); keeping the current values`;
  return {
    strategy: { name: strategy.name, contentHash: strategy.contentHash, file: strategy.file },
    objective: options.objective,
    seed: options.seed,
    trials: trials.length,
    split: options.split,
    windows,
    trainGain,
    heldOutGain,
    keptShare,
    heldOutT: Number.isFinite(t) ? t : 1e9,
    improved,
    verdict,
    chosen,
    baselineParams,
  };
}
