/** `lendbot strategy`: check strategy files, list the features they can use, explain a decision. */
import type { Command } from 'commander';
import type { CliIo } from '../../cli-io.js';
import { registerCheck } from './check.js';
import { registerExplain } from './explain.js';
import { registerFeatures } from './features.js';
import { examplesHelp } from '../../examples-help.js';

export function registerStrategyCommand(program: Command, io: CliIo): void {
  const strategy = program
    .command('strategy')
    .description('work with strategy files: check them, list features, explain decisions')
    .addHelpText('after', '\nStrategy files are YAML (see docs/strategies.md); strategies/ holds commented examples.')
    .addHelpText(
      'after',
      examplesHelp(
        ['lendbot strategy check strategies/*.yaml', 'every problem as file:line:col path: message'],
        ['lendbot strategy features --group banking', 'what a strategy can read'],
        ['lendbot strategy explain strategies/balanced.yaml --recording day.jsonl --id 1001', 'why it would (not) offer'],
      ),
    );
  registerCheck(strategy, io);
  registerFeatures(strategy, io);
  registerExplain(strategy, io);
}
