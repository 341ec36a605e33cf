/**
 * One retraining candidate: a strategy's `score.calibration` refitted on the lender's own loans
 * (the store's own recording, built in memory) with `lendbot train --calibrate`'s code, then
 * judged as `train` judges: on the held-out period, in every borrower world (held-out-check.ts).
 * Nothing here is new statistics; it is the command's steps with a refusal as a value.
 */
import { calibrateStrategy, checkAcrossWorlds, labelOf, type CalibrateReport, type WorldsCheck } from '../backtest/train/index.js';
import { CalibrationFitError, withCalibration, type CalibrationMethod } from '../backtest/calibration/index.js';
import type { PreparedRecording } from '../backtest/index.js';
import { compileStrategyText, type CompiledStrategy } from '../engine/index.js';
import { columnSourceOf } from '../engine/compile/compile-strategy.js';
import type { RetrainSettings } from './retrain-config.js';

/** The fit in figures, as stored with the round (held-out calibration before and after). */
export interface FitFigures {
  method: CalibrationMethod;
  fitted: number;
  heldOut: number;
  before: { predicted: number; realised: number; brier: number; n: number };
  after: { predicted: number; realised: number; brier: number; n: number };
}

/** The held-out check in figures: the gain (net annualized return, candidate minus current) per world. */
export interface HeldOutFigures {
  requests: number;
  assumed: { gain: number; low: number; high: number; candidateFunded: number; baselineFunded: number };
  worlds: Array<{ world: string; gain: number; low: number; high: number; candidateFunded: number; baselineFunded: number }>;
  losing: Array<{ world: string; gain: number }>;
  holds: boolean;
}

export type CandidateOutcome =
  | { kind: 'refused'; reason: string; resolvedLoans: number; fit?: FitFigures; heldOut?: HeldOutFigures; calibration?: unknown }
  | {
      kind: 'holds';
      reason: string;
      resolvedLoans: number;
      fit: FitFigures;
      heldOut: HeldOutFigures;
      /** The calibration refitted on every resolved loan: what would run. */
      calibration: unknown;
      /** The strategy's text with it. */
      text: string;
    };

/** Resolved loans (repaid in full, or defaulted) in a recording: what a calibration learns from. */
export function resolvedLoans(recording: PreparedRecording): number {
  return recording.entries.filter((entry) => labelOf(entry.line) !== null).length;
}

const points = (gain: number): string => `${gain >= 0 ? '+' : ''}${(gain * 100).toFixed(2)} points`;

/** The held-out check as the figures stored and shown. */
export function heldOutFigures(check: WorldsCheck): HeldOutFigures {
  const figures = (e: WorldsCheck['assumed']) => ({
    gain: e.gain,
    low: e.low,
    high: e.high,
    candidateFunded: e.candidateFunded,
    baselineFunded: e.baselineFunded,
  });
  return {
    requests: check.assumed.requests,
    assumed: figures(check.assumed),
    worlds: check.worlds.map((w) => ({ world: w.world, ...figures(w.evidence) })),
    losing: check.losing,
    holds: check.holds,
  };
}

/**
 * The money comparison in words. A store's own recording names our own rate as the rate each loan
 * was funded at, which the backtest reads as a rate to beat: an offer at or above it funds
 * nothing, so a candidate that prices no lower funds nothing either, and that is said plainly.
 */
export function fundedText(figures: HeldOutFigures): string {
  const { candidateFunded, baselineFunded } = figures.assumed;
  const text = `${candidateFunded} loans funded against ${baselineFunded} in the backtest of its ${figures.requests} requests`;
  return candidateFunded === 0 && baselineFunded === 0 ? `${text}: the money comparison is empty and says nothing either way` : text;
}

/** Where the worlds check loses, in words: "insensitive -0.31 points, linear -0.12 points". */
export function losingText(figures: HeldOutFigures): string {
  return figures.losing.map((w) => `${w.world} ${points(w.gain)}`).join(', ');
}

function fitFigures(report: CalibrateReport): FitFigures {
  const side = (s: CalibrateReport['before']) => ({
    predicted: s.overall.predicted,
    realised: s.overall.realised,
    brier: s.brier,
    n: s.overall.n,
  });
  return {
    method: report.method,
    fitted: report.recordings.reduce((sum, r) => sum + r.fit, 0),
    heldOut: report.recordings.reduce((sum, r) => sum + r.heldOut, 0),
    before: side(report.before),
    after: side(report.after),
  };
}

/**
 * Refits `strategy`'s calibration on `recording` (the store's own) and judges it held out.
 * `text`: the strategy's YAML as it runs (its file, or the managed version in force).
 */
export async function fitCandidate(
  recording: PreparedRecording,
  strategy: CompiledStrategy,
  text: string,
  settings: Pick<RetrainSettings, 'minResolved' | 'heldOutShare'>,
): Promise<CandidateOutcome> {
  const resolved = resolvedLoans(recording);
  if (strategy.kind !== 'yaml')
    return { kind: 'refused', reason: 'a plugin strategy: it has no calibration to refit', resolvedLoans: resolved };
  if (resolved < settings.minResolved) {
    return {
      kind: 'refused',
      reason: `${resolved} resolved loans, fewer than retrain.min_resolved ${settings.minResolved}: too few to tell a better calibration from noise`,
      resolvedLoans: resolved,
    };
  }
  const current = columnSourceOf(strategy)?.definition.score?.calibration;
  const method: CalibrationMethod = current?.method === 'isotonic' ? 'isotonic' : 'platt';
  let report: CalibrateReport;
  try {
    report = calibrateStrategy([{ file: 'the store', recording }], strategy, { method, trainShare: 1 - settings.heldOutShare });
  } catch (error) {
    if (error instanceof CalibrationFitError) return { kind: 'refused', reason: `cannot fit: ${error.message}`, resolvedLoans: resolved };
    throw error;
  }
  const fit = fitFigures(report);
  if (!(fit.after.brier < fit.before.brier)) {
    return {
      kind: 'refused',
      reason: `the refit predicts the ${fit.heldOut} held-out loans no better (Brier ${fit.after.brier.toFixed(4)} against ${fit.before.brier.toFixed(4)} now)`,
      resolvedLoans: resolved,
      fit,
      calibration: report.calibration,
    };
  }
  const judged = await compileStrategyText(withCalibration(text, report.evaluated), strategy.file);
  const heldOutFrom = report.recordings[0]?.heldOutFrom ?? recording.entries.length;
  const heldOut = heldOutFigures(checkAcrossWorlds([{ recording, heldOutFrom }], judged, strategy));
  if (!heldOut.holds) {
    return {
      kind: 'refused',
      reason: `loses held out in ${losingText(heldOut)} (net annualized return against the strategy as it runs)`,
      resolvedLoans: resolved,
      fit,
      heldOut,
      calibration: report.calibration,
    };
  }
  return {
    kind: 'holds',
    reason:
      `Brier ${fit.after.brier.toFixed(4)} against ${fit.before.brier.toFixed(4)} on ${fit.heldOut} held-out loans, and no borrower world loses ` +
      `(${fundedText(heldOut)})`,
    resolvedLoans: resolved,
    fit,
    heldOut,
    calibration: report.calibration,
    text: withCalibration(text, report.calibration),
  };
}
