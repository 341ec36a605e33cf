/**
 * `lendbot train calibration --method platt|isotonic --strategy FILE`: fits the strategy's
 * `score.calibration` on its own score from one or more recordings, prints the held-out
 * calibration before and after, and writes the strategy file with the fitted block (every other
 * line as it was). docs/training.md, "Calibrating a strategy".
 */
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import type { PreparedRecording } from '../../../backtest/index.js';
import { CalibrationFitError, withCalibration, type CalibrationMethod } from '../../../backtest/calibration/index.js';
import { calibrateStrategy, checkAcrossWorlds } from '../../../backtest/train/index.js';
import { ConfigFileError } from '../../../config/index.js';
import { compileStrategyText, loadStrategyFile, parseStrategyText } from '../../../engine/index.js';
import { printJson, type CliIo } from '../../cli-io.js';
import { examplesHelp } from '../../examples-help.js';
import { UserError } from '../../user-error.js';
import { formatCalibrateReport, worldsCheckText } from './calibrate-report-text.js';
import { readTrainingRecording, share, TRAIN_SHARE_HELP } from './train-inputs.js';
import { points } from '../../../backtest/tune/tuner.js';
import { commaList } from '../../comma-list.js';

interface CalibrateCliOptions {
  data: string;
  out: string;
  strategy: string;
  method: CalibrationMethod;
  trainShare: number;
  json?: boolean;
  /** Write even when the new calibration loses held out in some borrower world. */
  ignoreWorlds?: boolean;
}

function method(text: string): CalibrationMethod {
  if (text !== 'platt' && text !== 'isotonic') throw new InvalidArgumentError('expected platt or isotonic');
  return text;
}

export function registerTrainCalibrationCommand(train: Command, io: CliIo): void {
  train
    .command('calibration')
    .description("fit a strategy's score.calibration on its own score from recordings and write the strategy with it")
    .requiredOption('--method <method>', 'platt (a logistic curve) or isotonic (a stepwise curve)', method)
    .requiredOption('--strategy <file>', 'the strategy whose own score is calibrated (a YAML strategy)')
    .requiredOption('--data <files>', 'recording(s) (JSON lines) with outcomes, comma-separated')
    .requiredOption('--out <file>', 'strategy file to write: the strategy with the fitted block, every other line kept')
    .option('--train-share <share>', TRAIN_SHARE_HELP, share, 0.7)
    .option('--ignore-worlds', 'write even when the new calibration loses money held out in some borrower world')
    .option('--json', 'print the report as JSON instead of text')
    .addHelpText(
      'after',
      `
The calibration is fitted on the resolved requests the strategy scores, the first --train-share
of each recording; the rest judge it. Before writing, the strategy with the calibration fitted on
the first part is backtested against the strategy as it is on the held-out part of each
recording, in every borrower world; when it loses money in any world nothing is written and the
exit code is 3 (--ignore-worlds writes it anyway).`,
    )
    .addHelpText(
      'after',
      examplesHelp(
        [
          'lendbot train calibration --method platt --strategy strategies/balanced.yaml --data a.jsonl,b.jsonl --out strategies/balanced.yaml',
          "calibrate balanced's probability in place",
        ],
        [
          'lendbot train calibration --method isotonic --strategy s.yaml --data a.jsonl --out s.yaml --ignore-worlds',
          'write it even if it loses in some borrower world',
        ],
      ),
    )
    .action((options: CalibrateCliOptions) => runCalibrate(io, options));
}

async function recordings(io: CliIo, files: readonly string[]): Promise<Array<{ file: string; recording: PreparedRecording }>> {
  const out: Array<{ file: string; recording: PreparedRecording }> = [];
  // Several recordings: the count of bad lines left unnamed says which file it is about.
  for (const file of files) out.push({ file, recording: await readTrainingRecording(io, file, `${file}: `) });
  return out;
}

async function runCalibrate(io: CliIo, options: CalibrateCliOptions): Promise<void> {
  const files = commaList(options.data);
  let strategy;
  let text: string;
  try {
    strategy = await loadStrategyFile(options.strategy);
    text = await readFile(options.strategy, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new UserError(`cannot read ${options.strategy}: file not found`);
    throw error;
  }
  if (strategy.kind !== 'yaml') throw new UserError(`${options.strategy} is a plugin: calibration is a block of a YAML strategy's score`);
  let report;
  let written: string;
  let judged: string;
  const loaded = await recordings(io, files);
  try {
    report = calibrateStrategy(loaded, strategy, { method: options.method, trainShare: options.trainShare });
    written = withCalibration(text, report.calibration);
    judged = withCalibration(text, report.evaluated);
  } catch (error) {
    if (error instanceof CalibrationFitError) throw new UserError(`${options.strategy}: ${error.message}`);
    if (error instanceof RangeError) throw new UserError(`${options.strategy}: ${error.message}`);
    throw error;
  }
  // What is written must load: a strategy check before the file is replaced.
  try {
    parseStrategyText(written, options.out);
  } catch (error) {
    if (error instanceof ConfigFileError)
      throw new Error(`the calibrated strategy does not load (a bug): ${error.message}`, { cause: error });
    throw error;
  }
  // Tune's honesty: the calibration fitted on the first parts, judged against the strategy as it
  // is on the held-out parts, in every borrower world (held-out-check.ts).
  const parts = loaded.map(({ recording }, index) => ({
    recording,
    heldOutFrom: report.recordings[index]?.heldOutFrom ?? recording.entries.length,
  }));
  const check = checkAcrossWorlds(parts, await compileStrategyText(judged, options.strategy), strategy);
  const refused = !check.holds && options.ignoreWorlds !== true;
  const out = refused ? null : options.out;
  if (out !== null) {
    await mkdir(dirname(out), { recursive: true });
    await writeFile(out, written);
  }
  if (options.json === true) printJson(io, { ...report, worlds_check: check, written: out });
  else io.stdout.write(formatCalibrateReport(report, out, { text: worldsCheckText(check, options.ignoreWorlds === true) }));
  if (refused) {
    const lost = check.losing.map((w) => `${w.world} ${points(w.gain)}`).join(', ');
    throw new UserError(
      `not written: the new calibration loses held out in ${lost}; ${options.out} is unchanged (--ignore-worlds writes it anyway)`,
      'NOT_HELD_OUT',
    );
  }
}
