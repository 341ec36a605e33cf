/**
 * `lendbot train model`: fits a default model (penalised logistic regression of full repayment on
 * the feature catalogue) from a recording, judges it on the most recent lines, and writes the model
 * file a strategy's `score.model` reads, with its market file beside it (docs/training.md).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createHash } from 'node:crypto';
import type { Command } from 'commander';
import { marketFileOf } from '../../../backtest/train/index.js';
import { points } from '../../../backtest/tune/tuner.js';
import { printJson, type CliIo } from '../../cli-io.js';
import { examplesHelp } from '../../examples-help.js';
import { addRetiredOption } from '../../retired-option.js';
import { UserError } from '../../user-error.js';
import { worldsCheckText } from './calibrate-report-text.js';
import { checkModelInStrategy } from './model-check.js';
import { formatTrainReport } from './train-report-text.js';
import { addFitOptions, fitFromRecording, readTrainingRecording, type FitCliOptions } from './train-inputs.js';

interface ModelCliOptions extends FitCliOptions {
  strategy?: string;
  ignoreWorlds?: boolean;
}

/** Where the market file goes: beside the model, models/x.json -> models/x.market.json. */
function defaultMarketFile(modelFile: string): string {
  return modelFile.endsWith('.json') ? `${modelFile.slice(0, -'.json'.length)}.market.json` : `${modelFile}.market.json`;
}

export function registerTrainModelCommand(train: Command, io: CliIo): void {
  const command = train
    .command('model')
    .description("fit a default model from a recording and write it for a strategy's score.model (its market file beside it)")
    .requiredOption('--out <file>', 'model file to write (JSON), e.g. models/market.json; its market file goes beside it');
  addFitOptions(command)
    .option(
      '--strategy <file>',
      'a strategy that scores with score.model, checked with the new model before it is written (held out, in every borrower world)',
    )
    .option('--ignore-worlds', 'with --strategy: write even when the new model loses money held out in some borrower world');
  addRetiredOption(
    command,
    '--market-out <file>',
    'the market file goes beside the model; lendbot train market --out FILE writes one elsewhere',
  );
  command
    .addHelpText(
      'after',
      `
Labels: completed = repaid (1); default and collection = not repaid (0); unfunded lines count by
outcome.if_funded when the recording has it; current and other unfunded lines are left out.
The first --train-share of the labelled lines (by seen_at) fit the model, the rest judge it
(AUC, Brier score, calibration by decile); the model written is then refit on every labelled
line. The file also carries the market response fitted from the recording (competition, take-up),
and the market file beside it (models/x.market.json for models/x.json) holds it on its own, with
how many observations each part rests on (lendbot train market writes only that file).
Use them in a strategy: score: { model: ../models/market.json, min_probability: 0.8 } and
pricing: { mode: expected_profit, market: { file: ../models/market.market.json } }.
With --strategy FILE (a strategy that scores with score.model), the strategy with the model fitted
on the first --train-share is backtested against the strategy as it is on the held-out part, in
every borrower world; when it loses money in any world nothing is written and the exit code is 3
(--ignore-worlds writes anyway).`,
    )
    .addHelpText(
      'after',
      examplesHelp(
        'lendbot train model --data data/market.jsonl --out models/market.json',
        ['lendbot train model --data day.jsonl --out models/day.json --train-share 0.8 --l2 auto', ''],
        [
          'lendbot train model --data market.jsonl --out models/m.json --strategy strategies/modelled.yaml',
          'write the model only if the strategy earns with it in every borrower world',
        ],
      ),
    )
    .action(async (options: ModelCliOptions) => {
      if (options.ignoreWorlds === true && options.strategy === undefined)
        throw new UserError('--ignore-worlds needs --strategy FILE: the strategy the new model is checked in');
      const marketOut = defaultMarketFile(options.out);
      const recording = await readTrainingRecording(io, options.data);
      const report = fitFromRecording(io, recording, options);
      // With --strategy: written only when the new model loses no money held out in any borrower world.
      const check =
        options.strategy === undefined ? undefined : await checkModelInStrategy(options.strategy, report, recording, options.out);
      const refused = check !== undefined && !check.holds && options.ignoreWorlds !== true;
      const text = `${JSON.stringify(report.model, null, 2)}\n`;
      const written = refused ? null : { file: options.out, sha256: createHash('sha256').update(text).digest('hex') };
      if (written !== null) {
        await mkdir(dirname(options.out), { recursive: true });
        await writeFile(options.out, text);
        await writeFile(marketOut, `${JSON.stringify(marketFileOf(report, options.data, new Date()), null, 2)}\n`);
      }
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
