/**
 * One retraining candidate: a strategy's `score.calibration` refitted on the lender's own loans
 * (the store's own recording, built in memory) with `lendbot train calibration`'s code, then
 * judged as `train` judges: on the held-out period, in every borrower world (held-out-check.ts).
 * A strategy that scores with a model file has its model refitted instead (fit-model-candidate.ts).
 * Nothing here is new statistics; it is the commands' steps with a refusal as a value.
 */
import { calibrateStrategy, labelOf, type CalibrateReport } from '../backtest/train/index.js';
import { CalibrationFitError, withCalibration, type CalibrationMethod } from '../backtest/calibration/index.js';
import type { PreparedRecording } from '../backtest/index.js';
import { compileStrategyText, type CompiledStrategy } from '../engine/index.js';
import { columnSourceOf } from '../engine/compile/compile-strategy.js';
import type { RetrainSettings } from './retrain-config.js';
import { fundedText, heldOutCheck, losingText, type CandidateOutcome, type FitFigures } from './candidate-evidence.js';
import { fitModelCandidate, modelPathOf } from './fit-model-candidate.js';

export type { CandidateOutcome, FitFigures, HeldOutFigures } from './candidate-evidence.js';

/** Resolved loans (repaid in full, or defaulted) in a recording: what a calibration learns from. */
function resolvedLoans(recording: PreparedRecording): number {
  return recording.entries.filter((entry) => labelOf(entry.line) !== null).length;
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
  // A strategy that scores with a model file has its model refitted; its calibration block stays.
  const modelPath = modelPathOf(text, strategy.file);
  if (modelPath !== undefined) return fitModelCandidate(recording, strategy, text, modelPath, settings.heldOutShare, resolved);
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
  const heldOut = heldOutCheck(recording, heldOutFrom, judged, strategy);
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
