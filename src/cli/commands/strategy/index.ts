/** `lendbot strategy`: check strategy files, list the features they can use, explain a decision. */
import type { Command } from 'commander';
import type { CliIo } from '../../cli-io.js';
import { registerCheck } from './check.js';
import { registerExplain } from './explain.js';
import { registerFeatures } from './features.js';

export function registerStrategyCommand(program: Command, io: CliIo): void {
  const strategy = program
    .command('strategy')
    .description('work with strategy files: check them, list features, explain decisions')
    .addHelpText('after', '\nStrategy files are YAML (see docs/strategies.md); strategies/ holds commented examples.');
  registerCheck(strategy, io);
  registerFeatures(strategy, io);
  registerExplain(strategy, io);
}
