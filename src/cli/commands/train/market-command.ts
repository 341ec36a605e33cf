/**
 * `lendbot train market`: fits the market's response from a recording (how often another lender
 * offers and at what rate, how borrowers take up offers by rate and by their default probability,
 * the winner's curse on our own loans) and writes the market file a strategy's
 * `pricing.market.file` and a backtest's `--market` read (docs/training.md, "The market file").
 * The take-up by borrower is fitted against a default model of the same recording, which is fitted
 * here and not written (`lendbot train model` writes one).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Command } from 'commander';
import { marketFileOf } from '../../../backtest/train/index.js';
import { printJson, type CliIo } from '../../cli-io.js';
import { examplesHelp } from '../../examples-help.js';
import { marketLines } from './train-report-text.js';
import { addFitOptions, fitFromRecording, readTrainingRecording, type FitCliOptions } from './train-inputs.js';

export function registerTrainMarketCommand(train: Command, io: CliIo): void {
  const command = train
    .command('market')
    .description("fit the market's response (competition, take-up, winner's curse) from a recording and write the market file")
    .requiredOption('--out <file>', 'market file to write (JSON), e.g. models/market.market.json');
  addFitOptions(command)
    .addHelpText(
      'after',
      `
The market file holds each part with how many observations it rests on: competition from recorded
best competing rates, take-up (by the borrower's default probability when the fates show it) from
our own offers' fates, else from every offer the recording shows taken or walked away from, and the
winner's curse from our own funded loans of both fates. The default probability comes from a model
fitted on the same recording with --features, --l2 and --train-share; it is not written.
Use it in a strategy: pricing: { mode: expected_profit, market: { file: ../models/market.market.json } },
or replay against it: lendbot backtest --market models/market.market.json.`,
    )
    .addHelpText(
      'after',
      examplesHelp('lendbot train market --data data/market.jsonl --out models/market.market.json', [
        'lendbot train market --data market.jsonl --out markets/m.json --history-rates',
        "borrowers' past loan rates join the take-up fit",
      ]),
    )
    .action(async (options: FitCliOptions) => {
      const recording = await readTrainingRecording(io, options.data);
      const report = fitFromRecording(io, recording, options);
      const market = marketFileOf(report, options.data, new Date());
      await mkdir(dirname(options.out), { recursive: true });
      await writeFile(options.out, `${JSON.stringify(market, null, 2)}\n`);
      if (options.json === true) printJson(io, { written: options.out, notes: report.market.notes, market });
      else {
        io.stdout.write(marketLines(report, `Market response from ${options.data} (${report.lines} requests)`));
        io.stdout.write(`\nWrote ${options.out} (a strategy uses it as pricing.market.file, a backtest as --market)\n`);
      }
    });
}
