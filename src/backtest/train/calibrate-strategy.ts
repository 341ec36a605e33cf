/**
 * `lendbot train calibration`: fits a strategy's `score.calibration` on its own score from one or
 * more recordings, and judges it on held-out requests before writing it.
 *
 * 1. Every resolved request each recording holds and the strategy scores (calibration/
 *    strategy-probabilities.ts), with the score's probability before any calibration the
 *    strategy already has.
 * 2. Each recording is split by time: the first `trainShare` of its scored requests fit, the rest
 *    judge. Pooled over the recordings, so several market shapes and seeds can share one fit.
 * 3. The held-out table before (the strategy as it stands, its own calibration included) and
 *    after (the new calibration) shows what the fit changes on requests it never saw.
 * 4. The calibration written is refit on every scored request (as `lendbot train` refits its model).
 */
import { basename } from 'node:path';
import type { CompiledStrategy } from '../../engine/index.js';
import { columnSourceOf } from '../../engine/compile/compile-strategy.js';
import { resolveNumber } from '../../engine/definition/param-values.js';
import type { CalibrationDefinition, FittedCalibrationDefinition } from '../../engine/definition/strategy-schema.js';
import { logistic, logit } from '../../math/index.js';
import type { PreparedRecording } from '../prepared-recording.js';
import {
  calibrationStats,
  calibrator,
  CalibrationFitError,
  fitCalibration,
  predictionsOf,
  strategyProbabilities,
  type CalibrationMethod,
  type CalibrationStats,
  type ScoredRequest,
} from '../calibration/index.js';
import { MIN_LABELLED, MIN_PER_CLASS } from './train-model.js';

export interface CalibrateOptions {
  method: CalibrationMethod;
  /** Share of each recording's scored requests, oldest first, that fits the calibration judged on the rest. */
  trainShare: number;
}

interface CalibrationRecordingFacts {
  file: string;
  requests: number;
  resolved: number;
  scored: number;
  fit: number;
  heldOut: number;
  /** The first held-out request's index among the recording's requests: where its held-out period starts. */
  heldOutFrom: number;
}

export interface CalibrateReport {
  strategy: { name: string; file: string };
  method: CalibrationMethod;
  recordings: CalibrationRecordingFacts[];
  /** The strategy's calibration before this fit (replaced by it), if it had one. */
  replaced: CalibrationDefinition | undefined;
  /** Fitted on the fitting parts: what `after` judges. */
  evaluated: FittedCalibrationDefinition;
  /** Held-out requests: the strategy as it stands, then with `evaluated`. */
  before: CalibrationStats;
  after: CalibrationStats;
  /** Refit on every scored request: what is written. */
  calibration: FittedCalibrationDefinition;
  /** The strategy's min_probability, and the calibrated value that lets the same requests through (null when none does). */
  cut: { minProbability: number; sameRequestsAt: number | null } | undefined;
}

function checkClasses(items: readonly ScoredRequest[], what: string): void {
  const defaulted = items.filter((item) => item.defaulted === 1).length;
  const repaid = items.length - defaulted;
  if (items.length < MIN_LABELLED)
    throw new CalibrationFitError(`${items.length} resolved requests the strategy scores ${what} (need at least ${MIN_LABELLED})`);
  if (repaid < MIN_PER_CLASS || defaulted < MIN_PER_CLASS) {
    throw new CalibrationFitError(
      `${repaid} repaid and ${defaulted} defaulted requests the strategy scores ${what}; each needs at least ${MIN_PER_CLASS}`,
    );
  }
}

/**
 * The score probability (before calibration) at which the strategy's current probability reaches
 * `cut`: the raw cut. 0 when every score passes, 1 when none does.
 */
function rawCut(current: CalibrationDefinition | undefined, params: Readonly<Record<string, number>>, cut: number): number {
  if (current === undefined) return cut;
  // logit(cut, 0): a cut lies strictly between 0 and 1, so no clamp (the numbers stay as before the move).
  // A learned calibration prices a cold start at its seed moved by the prior's centre (logit of default + level_mean).
  if (current.method === 'learned') return rawCut(current.seed, params, logistic(logit(cut, 0) + current.level_mean));
  if (current.method === 'platt') return logistic((logit(cut, 0) - resolveNumber(current.b, params)) / resolveNumber(current.a, params));
  const points = current.points;
  if ((points[0]?.[1] ?? 1) >= cut) return 0;
  for (let i = 1; i < points.length; i += 1) {
    const [p1, q1] = points[i - 1] as [number, number];
    const [p2, q2] = points[i] as [number, number];
    if (q2 >= cut) return p1 + ((cut - q1) * (p2 - p1)) / (q2 - q1);
  }
  return 1;
}

function describe(method: CalibrationMethod, scored: number, files: readonly string[]): string {
  return `lendbot train calibration --method ${method}: ${scored} resolved requests the strategy scored, from ${files.map((file) => basename(file)).join(', ')}`;
}

/** Fits and judges the calibration of `strategy` on `recordings`; throws CalibrationFitError when the data cannot. */
export function calibrateStrategy(
  recordings: ReadonlyArray<{ file: string; recording: PreparedRecording }>,
  strategy: CompiledStrategy,
  options: CalibrateOptions,
): CalibrateReport {
  const facts: CalibrationRecordingFacts[] = [];
  const fitPart: ScoredRequest[] = [];
  const heldOut: ScoredRequest[] = [];
  let minProbability = 0;
  for (const { file, recording } of recordings) {
    const found = strategyProbabilities(recording, strategy);
    minProbability = found.minProbability;
    // Replay order is seen_at order: the first share is the oldest.
    const cut = Math.floor(found.scored.length * options.trainShare);
    fitPart.push(...found.scored.slice(0, cut));
    heldOut.push(...found.scored.slice(cut));
    const firstHeldOut = found.scored[cut]?.loanRequestId;
    const from = recording.entries.findIndex((entry) => entry.line.loan_request.id === firstHeldOut);
    const heldOutFrom = from < 0 ? recording.entries.length : from;
    facts.push({
      file,
      requests: found.requests,
      resolved: found.resolved,
      scored: found.scored.length,
      fit: cut,
      heldOut: found.scored.length - cut,
      heldOutFrom,
    });
  }
  const all = [...fitPart, ...heldOut];
  checkClasses(all, 'in the recordings');
  checkClasses(fitPart, `in the first ${Math.round(options.trainShare * 100)} % of each recording`);
  if (heldOut.length === 0)
    throw new CalibrationFitError(`--train-share ${options.trainShare} leaves no request to judge the calibration on`);

  const evaluated = fitCalibration(fitPart, options.method);
  const judge = calibrator(evaluated);
  const before = calibrationStats(predictionsOf(heldOut), minProbability);
  const after = calibrationStats(
    predictionsOf(heldOut, (item) => judge(item.rawProbability)),
    minProbability,
  );
  const calibration = {
    ...fitCalibration(all, options.method),
    description: describe(
      options.method,
      all.length,
      recordings.map((r) => r.file),
    ),
  };
  const source = columnSourceOf(strategy);
  const replaced = source?.definition.score?.calibration;
  let cut: CalibrateReport['cut'];
  if (minProbability > 0) {
    const raw = rawCut(replaced, strategy.params, minProbability);
    const same = raw <= 0 || raw >= 1 ? null : Math.round(calibrator(calibration)(raw) * 1000) / 1000;
    cut = { minProbability, sameRequestsAt: same };
  }
  return {
    strategy: { name: strategy.name, file: strategy.file },
    method: options.method,
    recordings: facts,
    replaced,
    evaluated,
    before,
    after,
    calibration,
    cut,
  };
}
