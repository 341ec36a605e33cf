/**
 * A retraining candidate for a strategy that scores with a model file (`score.model`): the model
 * refitted on the lender's own loans with `lendbot train`'s code, over the features the current
 * model reads, judged as `lendbot train model --strategy` judges it (cli/commands/train/model-check.ts):
 * the strategy scoring with the model fitted on the older loans alone, against the strategy as it
 * runs, on the held-out period in every borrower world. The strategy's text is kept; the refitted
 * model (on every resolved loan) is what would run, from the store, never written over the file.
 */
import { prepareRecording, type PreparedRecording } from '../backtest/index.js';
import { trainingData, trainModel, TrainingDataError, type TrainReport } from '../backtest/train/index.js';
import { compileStrategyText, parseStrategyText, type CompiledStrategy } from '../engine/index.js';
import { loadStrategyModel, strategyModelPath } from '../engine/load/load-strategy-file.js';
import { parseModelText } from '../engine/model/index.js';
import { calibrationOn, fundedText, heldOutCheck, losingText, type CandidateOutcome, type FitFigures } from './candidate-evidence.js';

/** The path the strategy's score.model names (resolved against its file), or undefined without one. */
export function modelPathOf(text: string, file: string): string | undefined {
  return strategyModelPath(parseStrategyText(text, file), file);
}

/** Refits `strategy`'s model on `recording` (the store's own) and judges it held out. */
export async function fitModelCandidate(
  recording: PreparedRecording,
  strategy: CompiledStrategy,
  text: string,
  modelPath: string,
  heldOutShare: number,
  resolvedLoans: number,
): Promise<CandidateOutcome> {
  const current = await loadStrategyModel(parseStrategyText(text, strategy.file), strategy.file, text);
  const features = current?.definition.features.map((feature) => feature.name) ?? [];
  let report: TrainReport;
  try {
    report = trainModel(trainingData(recording, features), { dataFile: 'the store', l2: 'auto', trainShare: 1 - heldOutShare });
  } catch (error) {
    if (error instanceof TrainingDataError) return { kind: 'refused', reason: `cannot fit the model: ${error.message}`, resolvedLoans };
    throw error;
  }
  const found = recording.entries.findIndex((entry) => entry.line.loan_request.id === report.heldOutFromId);
  const heldOutFrom = found < 0 ? recording.entries.length : found;
  const heldOutPart = prepareRecording(recording.entries.slice(heldOutFrom).map((entry) => entry.line));
  const judged = await compileStrategyText(text, strategy.file, parseModelText(JSON.stringify(report.evaluated), modelPath));
  const fit: FitFigures = {
    method: 'model',
    fitted: report.train.lines,
    heldOut: report.test.lines,
    before: calibrationOn(heldOutPart, strategy),
    after: calibrationOn(heldOutPart, judged),
  };
  const model = `${JSON.stringify(report.model, null, 2)}\n`;
  const summary = { features: features.length, l2: report.l2.value, auc: report.test.auc };
  if (!(fit.after.brier < fit.before.brier)) {
    return {
      kind: 'refused',
      reason: `the refitted model predicts the ${fit.after.n} held-out loans no better (Brier ${fit.after.brier.toFixed(4)} against ${fit.before.brier.toFixed(4)} now)`,
      resolvedLoans,
      fit,
      calibration: summary,
    };
  }
  const heldOut = heldOutCheck(recording, heldOutFrom, judged, strategy);
  if (!heldOut.holds) {
    return {
      kind: 'refused',
      reason: `the refitted model loses held out in ${losingText(heldOut)} (net annualized return against the strategy as it runs)`,
      resolvedLoans,
      fit,
      heldOut,
      calibration: summary,
    };
  }
  return {
    kind: 'holds',
    reason:
      `refitted model: Brier ${fit.after.brier.toFixed(4)} against ${fit.before.brier.toFixed(4)} on ${fit.after.n} held-out loans, ` +
      `and no borrower world loses (${fundedText(heldOut)})`,
    resolvedLoans,
    fit,
    heldOut,
    calibration: summary,
    text,
    model,
  };
}
