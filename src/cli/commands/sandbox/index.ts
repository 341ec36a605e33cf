/** `lendbot sandbox`: the simulated marketplace: serve it, or export recordings from it. */
import type { Command } from 'commander';
import type { CliIo } from '../../cli-io.js';
import { registerExport } from './export.js';
import { registerServe } from './serve.js';
import { examplesHelp } from '../../examples-help.js';

export function registerSandboxCommand(program: Command, io: CliIo): void {
  const sandbox = program
    .command('sandbox')
    .description('run the simulated marketplace locally (default: serve), or export recordings with known outcomes')
    .addHelpText(
      'after',
      examplesHelp(
        ['lendbot sandbox', 'serve it on 127.0.0.1:8787 and print the LENDBOT_* lines to point lendbot at it'],
        ['lendbot sandbox serve --port 0 --seed 7', 'a free port, another market'],
        ['lendbot sandbox export --out day.jsonl --requests 5000', 'a recording with known outcomes, for backtests'],
      ),
    );
  registerServe(sandbox, io);
  registerExport(sandbox, io);
}
