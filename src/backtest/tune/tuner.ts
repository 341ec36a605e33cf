/**
 * `lendbot tune`: random search over the params a strategy declares. Every trial is scored on
 * the training period(s) and the best one by training score alone is the candidate (choosing
 * among trials by held-out score would leak the test into the choice). The candidate and the
 * current values then get one held-out backtest each, with the real balance and its cash
 * constraint, compared request by request with a bootstrap interval (held-out-comparison.ts):
 * the tuned values are kept only when the interval's lower bound is above zero.
 */
import type { CompiledStrategy } from '../../engine/index.js';
import type { PreparedRecording } from '../prepared-recording.js';
import { MIN_FUNDED_LOANS } from '../report/summary-lines.js';
import type { BacktestOptions } from '../run-backtest.js';
import { compareHeldOut, type HeldOutEvidence, type HeldOutPair } from './held-out-comparison.js';
import { heldOutInWorlds, judgedInWorlds, type WorldHeldOut } from './held-out-worlds.js';
import { WORLD_NAMES } from '../borrower-worlds.js';
import type { ObjectiveSettings } from './objectives.js';
import { sampleTrials, type ParamValues } from './param-space.js';
import { seededRandom } from '../../engine/market/seeded-normals.js';
import { HALVING_ETA, halvesByDefault, halvingRungs, rungStart, trainByRungs } from './successive-halving.js';
import { timeWindows, type SplitSpec } from './time-splits.js';
import {
  inProcessEvaluator,
  type TrialContext,
  type TrialEvaluator,
  type TrialFigures,
  type TrialOutcome,
  type TrialTask,
} from './trial-evaluator.js';

export interface TuneOptions {
  trials: number;
  seed: number;
  objective: ObjectiveSettings;
  split: SplitSpec;
  backtest: BacktestOptions;
  /** How many of the best training trials the report lists (only the best is held out). */
  top?: number;
  onProgress?: (done: number, total: number) => void;
  /** Called as each halving rung starts (only when the tune halves): a line for a long run in a pipe, where no progress bar shows. */
  onRung?: (rung: RungStart) => void;
  /** Builds the evaluator (the worker pool); in-process when absent. */
  evaluator?: (context: TrialContext) => TrialEvaluator;
  /**
   * false: write the candidate when the held-out gain holds under the assumed curve alone. By
   * default it must also hold (gain above 0) in every borrower world (held-out-worlds.ts).
   */
  acrossWorlds?: boolean;
  /**
   * true: write the candidate even when fewer loans than MIN_FUNDED_LOANS were funded held out
   * (by either side). By default such a sample is too small to judge, as every backtest report
   * says of it, and the current values are kept.
   */
  acceptSmallSample?: boolean;
  /**
   * true: successive halving (successive-halving.ts), trials first judged on parts of the
   * training period; false: every trial on the whole period; absent: halving when the tune is
   * large (halvesByDefault).
   */
  halving?: boolean;
  /** The fewest requests a halving rung judges on (MIN_RUNG_REQUESTS; smaller in tests of small recordings). */
  minRungRequests?: number;
}

/** A halving rung as it starts: its number (from 1) of `of`, its share of the training period, its trials and requests per window. */
export interface RungStart {
  rung: number;
  of: number;
  share: number;
  trials: number;
  requests: number;
}

/** A rung of a halving tune: the share of the training period (its most recent part) and the trials judged on it per window. */
export interface RungReport {
  share: number;
  trials: number;
}

export interface RankedTrial {
  trial: number;
  params: ParamValues;
  train: number;
  /** The held-out score: only for the current values and the candidate (null for the others). */
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
  /** The best trials by training score, best first; the first is this window's candidate. */
  top: RankedTrial[];
}

export interface TuneReport {
  strategy: { name: string; contentHash: string; file: string };
  objective: ObjectiveSettings;
  seed: number;
  trials: number;
  split: SplitSpec;
  /** The starting balance of every backtest, training and held out. */
  startingBalanceCents: number;
  windows: WindowReport[];
  /** Mean over windows of (candidate − current) on the training period(s). */
  trainGain: number;
  /** Mean over windows of (candidate − current) held out, in the objective's unit (= heldOut.gain). */
  heldOutGain: number;
  /** The paired held-out comparison: gain, interval, sample size. */
  heldOut: HeldOutEvidence;
  /** The held-out comparison in each borrower world (empty when the recording records acceptance). */
  worlds: WorldHeldOut[];
  /**
   * Whether the held-out interval's lower bound is above zero, (unless acrossWorlds is false) the
   * gain holds in every world, and (unless acceptSmallSample) both sides funded at least
   * MIN_FUNDED_LOANS loans held out.
   */
  improved: boolean;
  /** Fewer held-out loans funded (by the fewer side) than a backtest needs before its figures are more than luck. */
  smallSample: boolean;
  verdict: string;
  /** The rungs, shortest part first, when the tune halved (absent when every trial replayed the whole period). */
  halving?: RungReport[];
  /** The values to write: the last window's candidate when improved, else the current ones. */
  chosen: ParamValues;
  baselineParams: ParamValues;
}

export async function tune(recording: PreparedRecording, strategy: CompiledStrategy, options: TuneOptions): Promise<TuneReport> {
  const trials = sampleTrials(strategy.paramSpecs, strategy.params, Math.max(1, options.trials), seededRandom(options.seed));
  const windows = timeWindows(recording, options.split);
  const shortest = Math.min(...windows.map((w) => w.train.entries.length));
  const halving = options.halving ?? halvesByDefault(trials.length, shortest);
  const rungs = halving
    ? halvingRungs(trials.length, shortest, HALVING_ETA, options.minRungRequests)
    : [{ share: 1, trials: trials.length }];
  const context: TrialContext = {
    strategy,
    windows,
    trials,
    backtest: options.backtest,
    objective: options.objective,
    rungShares: rungs.map((r) => r.share),
  };
  const evaluator = (options.evaluator ?? inProcessEvaluator)(context);
  let closed: Promise<void> | undefined;
  const close = (): Promise<void> => (closed ??= evaluator.close());
  const top = Math.min(options.top ?? 5, trials.length);
  // Training: every trial of each rung on every window (a rung after the first also keeps the
  // current values, hence its + 1); held out: the candidate and the current values.
  let total = windows.length * (rungs.reduce((sum, r, k) => sum + Math.min(trials.length, r.trials + (k > 0 ? 1 : 0)), 0) + 2);
  let done = 0;
  const tick = (): void => options.onProgress?.(++done, total);
  try {
    const onRung =
      rungs.length > 1 && options.onRung
        ? (k: number, judged: number) => {
            const share = rungs[k]?.share ?? 1;
            const requests = shortest - rungStart(shortest, share);
            options.onRung?.({ rung: k + 1, of: rungs.length, share, trials: judged, requests });
          }
        : undefined;
    const trainRungs = await trainByRungs(evaluator, windows.length, trials.length, rungs, tick, onRung);
    const train = trainRungs.at(-1)?.outcomes ?? [];
    const byWindow = windows.map((_, window) =>
      train.filter((o) => o.window === window).sort((a, b) => b.score - a.score || a.trial - b.trial),
    );
    const candidates = byWindow.map((ranked) => ranked[0]?.trial ?? 0);
    const heldOutTasks = (world?: number): TrialTask[] =>
      candidates.flatMap((candidate, window) =>
        [...new Set([0, candidate])].map((trial) => ({ trial, window, part: 'test' as const, ...(world === undefined ? {} : { world }) })),
      );
    const testTasks = heldOutTasks();
    // Only a candidate that differs is worth judging in the worlds (the runs cost a backtest each).
    // They are held-out tasks like the others, so the workers run them all at once.
    const inWorlds = candidates.some((trial) => trial !== 0) && judgedInWorlds(windows);
    const worldTasks = inWorlds ? WORLD_NAMES.flatMap((_, world) => heldOutTasks(world)) : [];
    total += worldTasks.length;
    const outcomes = await evaluator.evaluate([...testTasks, ...worldTasks], tick);
    await close();
    options.onProgress?.(total, total);
    const test = outcomes.slice(0, testTasks.length);
    const find = (window: number, trial: number, world?: number): TrialOutcome => {
      const outcome = outcomes.find((t) => t.window === window && t.trial === trial && t.world === world);
      if (!outcome) throw new Error(`trial ${trial} was not held out on window ${window}`);
      return outcome;
    };
    const heldOut = (window: number, trial: number): TrialOutcome => find(window, trial);
    const reports = windows.map((window, index): WindowReport => {
      const ranked = byWindow[index] ?? [];
      const rank = (outcome: TrialOutcome): RankedTrial => {
        const held = test.find((t) => t.window === index && t.trial === outcome.trial);
        return {
          trial: outcome.trial,
          params: trials[outcome.trial] ?? {},
          train: outcome.score,
          test: held?.score ?? null,
          trainFigures: outcome.figures,
          testFigures: held?.figures ?? null,
        };
      };
      const baseline = ranked.find((o) => o.trial === 0);
      if (!baseline) throw new Error('the baseline trial was not evaluated');
      return {
        trainFrom: window.train.entries[0]?.seenAt ?? null,
        trainTo: window.train.entries.at(-1)?.seenAt ?? null,
        testFrom: window.test.entries[0]?.seenAt ?? null,
        testTo: window.test.entries.at(-1)?.seenAt ?? null,
        trainRequests: window.train.entries.length,
        testRequests: window.test.entries.length,
        baseline: rank(baseline),
        top: ranked.slice(0, top).map(rank),
      };
    });
    const pairs: HeldOutPair[] = windows.map((window, index) => ({
      candidate: heldOut(index, candidates[index] ?? 0),
      baseline: heldOut(index, 0),
      spanMs: (window.test.entries.at(-1)?.seenMs ?? 0) - (window.test.entries[0]?.seenMs ?? 0),
    }));
    const evidence = compareHeldOut(pairs, options.backtest.startingBalanceCents, options.seed);
    const worlds = inWorlds
      ? heldOutInWorlds(windows, options.backtest, options.seed, (_, window, world) => ({
          candidate: find(window, candidates[window] ?? 0, world),
          baseline: find(window, 0, world),
        }))
      : [];
    const halvingReport = rungs.length > 1 ? trainRungs.map(({ share, trials: judged }) => ({ share, trials: judged })) : [];
    return summarize(reports, evidence, worlds, strategy, trials, options, halvingReport);
  } finally {
    await close();
  }
}

/** A gain in points of return, signed (tune's, train's and retrain's verdicts). */
export const points = (v: number): string => `${v >= 0 ? '+' : ''}${(v * 100).toFixed(2)} points`;

function summarize(
  windows: WindowReport[],
  heldOut: HeldOutEvidence,
  worlds: WorldHeldOut[],
  strategy: CompiledStrategy,
  trials: readonly ParamValues[],
  options: TuneOptions,
  halving: RungReport[],
): TuneReport {
  const mean = (values: number[]): number => (values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length);
  const trainGain = mean(windows.map((w) => (w.top[0]?.train ?? 0) - w.baseline.train));
  const candidateDiffers = windows.some((w) => (w.top[0]?.trial ?? 0) !== 0);
  const improvedInCurve = candidateDiffers && trainGain > 0 && heldOut.low > 0;
  const losingWorlds = worlds.filter((w) => !(w.evidence.gain > 0));
  const acrossWorlds = options.acrossWorlds === false || losingWorlds.length === 0;
  // The backtest's own bar: below it a report calls its figures mostly luck, so tune must not
  // write values from such a sample either (issue 36: values were written from 27 against 43 loans).
  const smallSample = Math.min(heldOut.candidateFunded, heldOut.baselineFunded) < MIN_FUNDED_LOANS;
  const improved = improvedInCurve && acrossWorlds && (!smallSample || options.acceptSmallSample === true);
  const baselineParams = { ...(trials[0] ?? {}) };
  const last = windows.at(-1)?.top[0];
  const chosen = improved && last ? { ...last.params } : baselineParams;
  const interval = `${Math.round(heldOut.confidence * 100)}% interval ${points(heldOut.low)} to ${points(heldOut.high)}`;
  const sample = `${heldOut.requests} held-out requests, ${heldOut.candidateFunded} loans funded by the candidate and ${heldOut.baselineFunded} by the current values`;
  const charged =
    heldOut.penaltyIncrease > 0
      ? `, after charging the candidate ${points(heldOut.penaltyIncrease)} of worse ${options.objective.objective === 'risk_adjusted' ? 'drawdown' : 'default penalty'}`
      : '';
  let verdict: string;
  if (!candidateDiffers || trainGain <= 0) verdict = 'no trial beat the current values in training; keeping them';
  else if (improvedInCurve && acrossWorlds && !improved)
    verdict = `too few loans to judge: ${points(trainGain)} in training, ${points(heldOut.gain)} held out (${interval}${charged}; ${sample}), but below ${MIN_FUNDED_LOANS} funded loans a backtest's figures are mostly luck; keeping the current values (a longer recording, or --accept-small-sample to write them anyway)`;
  else if (improvedInCurve && !improved) {
    const lost = losingWorlds.map((w) => `${w.world} ${points(w.evidence.gain)}`).join(', ');
    verdict = `not across borrower worlds: ${points(trainGain)} in training, ${points(heldOut.gain)} held out (${interval}${charged}; ${sample}), but the held-out gain does not hold in ${lost}; keeping the current values (--ignore-worlds writes them anyway)`;
  } else if (improved)
    verdict = `improved: ${points(trainGain)} in training, ${points(heldOut.gain)} held out (${interval}${charged}; ${sample}); writing the tuned values${smallSample ? ` (fewer than ${MIN_FUNDED_LOANS} funded loans: mostly luck, written as --accept-small-sample asked)` : ''}`;
  else if (heldOut.gain <= 0)
    verdict = `overfit: ${points(trainGain)} in training but ${points(heldOut.gain)} held out (${interval}${charged}; ${sample}); keeping the current values`;
  else
    verdict = `not shown: ${points(trainGain)} in training, ${points(heldOut.gain)} held out, but the ${interval} reaches zero${charged} (${sample}); keeping the current values`;
  return {
    strategy: { name: strategy.name, contentHash: strategy.contentHash, file: strategy.file },
    objective: options.objective,
    seed: options.seed,
    trials: trials.length,
    split: options.split,
    startingBalanceCents: options.backtest.startingBalanceCents,
    windows,
    trainGain,
    heldOutGain: heldOut.gain,
    heldOut,
    worlds,
    improved,
    smallSample,
    verdict,
    ...(halving.length > 0 ? { halving } : {}),
    chosen,
    baselineParams,
  };
}
