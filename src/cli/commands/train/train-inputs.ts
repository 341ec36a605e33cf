/**
 * What `lendbot train model` and `lendbot train market` share: the option parsers, reading the
 * recording (the first bad lines named, then a count) and the fit itself, since the market's
 * borrower-dependent take-up is fitted against the model's default probability.
 */
import { access } from 'node:fs/promises';
import { InvalidArgumentError, type Command } from 'commander';
import { loadRecording, type PreparedRecording } from '../../../backtest/index.js';
import { featureList, trainingData, trainModel, TrainingDataError, type TrainReport } from '../../../backtest/train/index.js';
import { warn, type CliIo } from '../../cli-io.js';
import { UserError } from '../../user-error.js';
import { commaList } from '../../comma-list.js';

/** The options of a fit from one recording. */
export interface FitCliOptions {
  data: string;
  out: string;
  features?: string[];
  l2: number | 'auto';
  trainShare: number;
  historyRates?: boolean;
  json?: boolean;
}

function penalty(text: string): number | 'auto' {
  if (text === 'auto') return 'auto';
  const value = Number(text);
  if (!(text.trim() !== '' && Number.isFinite(value) && value >= 0))
    throw new InvalidArgumentError('expected "auto" or a number from 0, such as 10');
  return value;
}

/** A share strictly between 0 and 1 (--train-share). */
export function share(text: string): number {
  const value = Number(text);
  if (!(value > 0 && value < 1)) throw new InvalidArgumentError('expected a share between 0 and 1, such as 0.7');
  return value;
}

/** --train-share, as train model, calibration and market all take it. */
export const TRAIN_SHARE_HELP = 'share of the labelled lines, oldest first, that fits (the rest judge it)';

/** The options of a fit: the model's own, and those the market's fit reads through it. */
export function addFitOptions(command: Command): Command {
  return command
    .requiredOption('--data <file>', 'recording (JSON lines) with outcomes')
    .option('--features <names>', 'comma-separated features to use (default: the whole catalogue)', commaList)
    .option(
      '--l2 <n|auto>',
      'L2 penalty on the standardised weights; auto: chosen by validation inside the fitting part',
      penalty,
      'auto' as const,
    )
    .option('--train-share <share>', TRAIN_SHARE_HELP, share, 0.7)
    .option('--history-rates', "let the rates of borrowers' past loans join the take-up fit as rates they took (default: only counted)")
    .option('--json', 'print the report as JSON instead of text');
}

/** The recording of --data; its first five bad lines are warned about, then a count (after `countPrefix`). */
export async function readTrainingRecording(io: CliIo, file: string, countPrefix = ''): Promise<PreparedRecording> {
  try {
    await access(file);
  } catch {
    throw new UserError(`cannot read ${file}: file not found`);
  }
  let issues = 0;
  const recording = await loadRecording(file, {}, (issue) => {
    issues += 1;
    if (issues <= 5) warn(io, `${issue.file}:${issue.line}: ${issue.message}`);
  });
  if (issues > 5) warn(io, `${countPrefix}${issues - 5} more bad lines skipped`);
  return recording;
}

/** The model and the market response fitted from `recording`; data too thin is the user's to fix. */
export function fitFromRecording(io: CliIo, recording: PreparedRecording, options: FitCliOptions): TrainReport {
  let report;
  try {
    report = trainModel(trainingData(recording, featureList(options.features)), {
      dataFile: options.data,
      l2: options.l2,
      trainShare: options.trainShare,
      historyRates: options.historyRates === true,
    });
  } catch (error) {
    if (error instanceof TrainingDataError) throw new UserError(error.message);
    throw error;
  }
  if (!report.converged) warn(io, 'the fit did not converge in 100 Newton steps; try a larger --l2');
  return report;
}
