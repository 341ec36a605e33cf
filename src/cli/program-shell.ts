/** The `lendbot` program without its commands: name, version, help and output settings. */
import { Command } from 'commander';
import { LENDBOT_VERSION } from '../version.js';
import type { CliIo } from './cli-io.js';

export function programShell(io: CliIo): Command {
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
  return program;
}
