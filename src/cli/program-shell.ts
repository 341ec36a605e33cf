/** The `lendbot` program without its commands: name, version, help and output settings. */
import { Command } from 'commander';
import { LENDBOT_VERSION } from '../version.js';
import type { CliIo } from './cli-io.js';
import { examplesHelp } from './examples-help.js';

export function programShell(io: CliIo): Command {
  const program = new Command('lendbot')
    .description('Invest on a peer-to-peer lending marketplace with YAML-configured strategies.')
    .version(LENDBOT_VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .showHelpAfterError('(run with --help for usage)')
    .addHelpText(
      'after',
      examplesHelp(
        ['lendbot run --sandbox', 'the simulated marketplace, a day a second (what npm start runs)'],
        ['lendbot status', 'balance, free cash, exposure, offers today'],
        ['lendbot decisions --limit 20', 'the 20 newest decisions and what became of them'],
        ['lendbot backtest --help', 'every command has --help, with examples'],
      ),
    )
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    });
  // Set before commands are added so every subcommand inherits it: main.ts handles exits.
  program.exitOverride();
  return program;
}
