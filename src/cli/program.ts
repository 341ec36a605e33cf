/** Builds the `lendbot` program from the command table. */
import { Command } from 'commander';
import { LENDBOT_VERSION } from '../version.js';
import type { CliIo } from './cli-io.js';
import { COMMAND_TABLE } from './command-table.js';

export function buildProgram(io: CliIo): Command {
  const program = new Command('lendbot')
    .description('Invest on a peer-to-peer lending marketplace with YAML-configured strategies.')
    .version(LENDBOT_VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    });
  // Set before commands are added so every subcommand inherits it: main.ts handles exits.
  program.exitOverride();
  for (const register of COMMAND_TABLE) register(program, io);
  return program;
}
