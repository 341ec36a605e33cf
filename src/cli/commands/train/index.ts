/**
 * `lendbot train`: fits a default model (penalised logistic regression of full repayment on the
 * feature catalogue) from a recording, judges it on the most recent lines, and writes the model
 * file a strategy's `score.model` reads (docs/training.md). With `--calibrate`, fits a strategy's
 * `score.calibration` on its own score instead (calibrate-command.ts).
 */
import { access, mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createHash } from 'node:crypto';
import { InvalidArgumentError, type Command } from 'commander';
import { loadRecording } from '../../../backtest/index.js';
import { featureList, marketFileOf, trainingData, trainModel, TrainingDataError } from '../../../backtest/train/index.js';
import { printJson, warn, type CliIo } from '../../cli-io.js';
import { UserError } from '../../user-error.js';
import { formatTrainReport } from './train-report-text.js';
import { examplesHelp } from '../../examples-help.js';
import { runCalibrate } from './calibrate-command.js';
import { worldsCheckText } from './calibrate-report-text.js';
import { checkModelInStrategy } from './model-check.js';
import { points } from '../../../backtest/tune/tuner.js';
import type { CalibrationMethod } from '../../../backtest/calibration/index.js';

interface TrainCliOptions {
  data: string;
  out: string;
  features?: string[];
  l2: number | 'auto';
  trainShare: number;
  json?: boolean;
  calibrate?: CalibrationMethod;
  strategy?: string;
  marketOut?: string;
  historyRates?: boolean;
  ignoreWorlds?: boolean;
}

/** Where the market file goes without --market-out: beside the model, models/x.json -> models/x.market.json. */
export function defaultMarketFile(modelFile: string): string {
  return modelFile.endsWith('.json') ? `${modelFile.slice(0, -'.json'.length)}.market.json` : `${modelFile}.market.json`;
}

function method(text: string): CalibrationMethod {
  if (text !== 'platt' && text !== 'isotonic') throw new InvalidArgumentError('expected platt or isotonic');
  return text;
}

function penalty(text: string): number | 'auto' {
  if (text === 'auto') return 'auto';
  const value = Number(text);
  if (!(text.trim() !== '' && Number.isFinite(value) && value >= 0))
    throw new InvalidArgumentError('expected "auto" or a number from 0, such as 10');
  return value;
}

function share(text: string): number {
  const value = Number(text);
  if (!(value > 0 && value < 1)) throw new InvalidArgumentError('expected a share between 0 and 1, such as 0.7');
  return value;
}

function names(text: string): string[] {
  return text
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
}

export function registerTrainCommand(program: Command, io: CliIo): void {
  program
    .command('train')
    .description('fit a default model from a recording and write it for a strategy’s score.model')
    .requiredOption('--data <file>', 'recording (JSON lines) with outcomes')
    .requiredOption('--out <file>', 'model file to write (JSON), e.g. models/market.json')
    .option('--features <names>', 'comma-separated features to use (default: the whole catalogue)', names)
    .option(
      '--l2 <n|auto>',
      'L2 penalty on the standardised weights; auto: chosen by validation inside the fitting part',
      penalty,
      'auto' as const,
    )
    .option('--train-share <share>', 'share of the labelled lines, oldest first, that fits the model for evaluation', share, 0.7)
    .option('--json', 'print the report as JSON instead of text')
    .option(
      '--calibrate <method>',
      "platt or isotonic: fit --strategy's score.calibration instead of a model, and write the strategy to --out",
      method,
    )
    .option(
      '--market-out <file>',
      "market file to write (JSON) for a strategy's pricing.market.file (default: beside --out, models/x.market.json)",
    )
    .option('--history-rates', "let the rates of borrowers' past loans join the take-up fit as rates they took (default: only counted)")
    .option(
      '--strategy <file>',
      'with --calibrate: the strategy whose own score is calibrated (--data may then list several recordings, comma-separated); with a model: a strategy that scores with score.model, checked with the new model before it is written',
    )
    .option('--ignore-worlds', 'with --strategy: write even when the new calibration or model loses money held out in some borrower world')
    .addHelpText(
      'after',
      `
Labels: completed = repaid (1); default and collection = not repaid (0); unfunded lines count by
outcome.if_funded when the recording has it; current and other unfunded lines are left out.
The first --train-share of the labelled lines (by seen_at) fit the model, the rest judge it
(AUC, Brier score, calibration by decile); the model written is then refit on every labelled
line. The file also carries the market response fitted from the recording (competition, take-up),
and --market-out (default models/x.market.json beside models/x.json) writes it on its own, with
how many observations each part rests on: competition from recorded best competing rates,
take-up (by the borrower's default probability when the fates show it) from our own offers'
fates, else from every offer the recording shows taken or walked away from.
Use them in a strategy: score: { model: ../models/market.json, min_probability: 0.8 } and
pricing: { mode: expected_profit, market: { file: ../models/market.market.json } }.
With --strategy FILE (a strategy that scores with score.model), the strategy with the model fitted
on the first --train-share is backtested against the strategy as it is on the held-out part, in
every borrower world; when it loses money in any world nothing is written and the exit code is 3
(--ignore-worlds writes anyway).

--calibrate platt|isotonic --strategy FILE fits the strategy's score.calibration on its own score
(resolved requests it scores, the first --train-share of each recording; the rest judge it) and
writes the strategy to --out with the block (every other line kept). Before writing, the strategy
with the calibration fitted on the first part is backtested against the strategy as it is on the
held-out part of each recording, in every borrower world; when it loses money in any world nothing
is written and the exit code is 3 (--ignore-worlds writes it anyway).`,
    )
    .addHelpText(
      'after',
      examplesHelp(
        'lendbot train --data data/market.jsonl --out models/market.json',
        ['lendbot train --data day.jsonl --out models/day.json --train-share 0.8 --l2 auto', ''],
        [
          'lendbot train --data market.jsonl --out models/m.json --market-out markets/m.json',
          'the market file where strategies look for it',
        ],
        [
          'lendbot train --data market.jsonl --out models/m.json --strategy strategies/modelled.yaml',
          'write the model only if the strategy earns with it in every borrower world',
        ],
        [
          'lendbot train --calibrate platt --strategy strategies/balanced.yaml --data a.jsonl,b.jsonl --out strategies/balanced.yaml',
          "calibrate balanced's probability in place",
        ],
        [
          'lendbot train --calibrate isotonic --strategy s.yaml --data a.jsonl --out s.yaml --ignore-worlds',
          'write it even if it loses in some borrower world',
        ],
      ),
    )
    .action(async (options: TrainCliOptions) => {
      if (options.calibrate !== undefined) {
        if (options.features !== undefined)
          throw new UserError("--features is for a model; --calibrate calibrates the strategy's own score");
        return runCalibrate(io, { ...options, calibrate: options.calibrate });
      }
      if (options.ignoreWorlds === true && options.strategy === undefined)
        throw new UserError('--ignore-worlds needs --strategy FILE: the strategy the new model is checked in');
      const marketOut = options.marketOut ?? defaultMarketFile(options.out);
      if (marketOut === options.out) throw new UserError('--market-out must differ from --out (the model file)');
      try {
        await access(options.data);
      } catch {
        throw new UserError(`cannot read ${options.data}: file not found`);
      }
      let issues = 0;
      const recording = await loadRecording(options.data, {}, (issue) => {
        issues += 1;
        if (issues <= 5) warn(io, `${issue.file}:${issue.line}: ${issue.message}`);
      });
      if (issues > 5) warn(io, `${issues - 5} more bad lines skipped`);
      let report;
      try {
        const data = trainingData(recording, featureList(options.features));
        report = trainModel(data, {
          dataFile: options.data,
          l2: options.l2,
          trainShare: options.trainShare,
          historyRates: options.historyRates === true,
        });
      } catch (error) {
        if (error instanceof TrainingDataError) throw new UserError(error.message);
        throw error;
      }
      // With --strategy: written only when the new model loses no money held out in any borrower world.
      const check =
        options.strategy === undefined ? undefined : await checkModelInStrategy(options.strategy, report, recording, options.out);
      const refused = check !== undefined && !check.holds && options.ignoreWorlds !== true;
      const text = `${JSON.stringify(report.model, null, 2)}\n`;
      const written = refused ? null : { file: options.out, sha256: createHash('sha256').update(text).digest('hex') };
      if (written !== null) {
        await mkdir(dirname(options.out), { recursive: true });
        await writeFile(options.out, text);
        const marketText = `${JSON.stringify(marketFileOf(report, options.data, new Date()), null, 2)}\n`;
        await mkdir(dirname(marketOut), { recursive: true });
        await writeFile(marketOut, marketText);
      }
      if (!report.converged) warn(io, 'the fit did not converge in 100 Newton steps; try a larger --l2');
      if (options.json === true) {
        const { model, evaluated: _evaluated, ...rest } = report;
        printJson(io, {
          ...rest,
          written,
          market_file: written === null ? null : marketOut,
          ...(check === undefined ? {} : { worlds_check: check }),
          model,
        });
      } else {
        io.stdout.write(formatTrainReport(report, written));
        if (check !== undefined) io.stdout.write(worldsCheckText(check, options.ignoreWorlds === true, 'model'));
        if (written !== null)
          io.stdout.write(`Wrote ${marketOut} (the market response and its evidence; a strategy uses it as pricing.market.file)\n`);
      }
      if (refused) {
        const lost = check.losing.map((w) => `${w.world} ${points(w.gain)}`).join(', ');
        throw new UserError(
          `not written: ${options.strategy ?? ''} with the new model loses held out in ${lost}; ${options.out} is unchanged (--ignore-worlds writes it anyway)`,
          'NOT_HELD_OUT',
        );
      }
    });
}
