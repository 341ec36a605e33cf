/**
 * `lendbot train model | calibration | market` (docs/training.md): one subcommand per job, each
 * with its own options and --help. `train` once chose among the three by flags (--calibrate,
 * --market-out); that form now fails with one line naming the subcommand, so a script written for
 * it stops instead of doing a different job.
 */
import type { Command } from 'commander';
import type { CliIo } from '../../cli-io.js';
import { examplesHelp } from '../../examples-help.js';
import { UserError } from '../../user-error.js';
import { registerTrainCalibrationCommand } from './calibration-command.js';
import { registerTrainMarketCommand } from './market-command.js';
import { registerTrainModelCommand } from './model-command.js';

/** The one line for the old flag form: which subcommand does what those flags asked for. */
export function oldTrainFormMessage(args: readonly string[]): string {
  const at = args.indexOf('--calibrate');
  if (at >= 0 || args.some((arg) => arg.startsWith('--calibrate=')))
    return `lendbot train --calibrate is now lendbot train calibration --method ${args[at + 1] ?? 'platt|isotonic'} (with the same --strategy, --data and --out)`;
  if (args.some((arg) => arg === '--market-out' || arg.startsWith('--market-out=')))
    return 'lendbot train --market-out is now lendbot train market --data FILE --out FILE (lendbot train model writes the market file beside the model)';
  return 'lendbot train now names its job: lendbot train model (the same options, for a default model), lendbot train calibration or lendbot train market';
}

export function registerTrainCommand(program: Command, io: CliIo): void {
  const train = program
    .command('train')
    .description("fit from a recording: a default model, a strategy's calibration or the market's response")
    .addHelpText(
      'after',
      examplesHelp(
        ['lendbot train model --data data/market.jsonl --out models/market.json', 'a default model, its market file beside it'],
        [
          'lendbot train calibration --method platt --strategy strategies/balanced.yaml --data a.jsonl --out strategies/balanced.yaml',
          "a strategy's score.calibration",
        ],
        ['lendbot train market --data data/market.jsonl --out models/market.market.json', 'the market file alone'],
      ),
    )
    .action((_options: unknown, command: Command) => {
      if (command.args.length === 0) command.help({ error: true });
      throw new UserError(oldTrainFormMessage(command.args), 'USAGE');
    });
  registerTrainModelCommand(train, io);
  registerTrainCalibrationCommand(train, io);
  registerTrainMarketCommand(train, io);
  // Only so the old flag form reaches the action above and is told the subcommand to use. Set
  // after the subcommands exist: commander copies allowExcessArguments into those made later.
  train.allowUnknownOption().allowExcessArguments();
}
