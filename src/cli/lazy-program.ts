/**
 * The program as the `lendbot` binary builds it: only the command named on the command line is
 * loaded; every other command is a placeholder with its name and summary, which is all that
 * `lendbot --help` and "unknown command (Did you mean ...?)" need. Start-up then costs the
 * command run, not all of them (`lendbot --help` loads none).
 */
import { Command, Help } from 'commander';
import type { CliIo } from './cli-io.js';
import { COMMAND_TABLE, type CommandEntry } from './command-table.js';
import { programShell } from './program-shell.js';

/** `args` without node and the script (process.argv.slice(2)). */
export async function buildProgramFor(io: CliIo, args: readonly string[]): Promise<Command> {
  const program = programShell(io);
  const wanted = commandNamed(args);
  const placeholders = new Map<Command, CommandEntry>();
  for (const entry of COMMAND_TABLE) {
    if (entry.name === wanted) {
      (await entry.load())(program, io);
    } else {
      placeholders.set(program.command(entry.name).description(entry.summary), entry);
    }
  }
  // A placeholder has no options; list it as the real command is listed (`run [options]`, `approve [options] [id]`).
  program.configureHelp({
    subcommandTerm(this: Help, command: Command): string {
      const entry = placeholders.get(command);
      if (entry) return `${entry.name}${entry.hasOptions ? ' [options]' : ''}${entry.operands === undefined ? '' : ` ${entry.operands}`}`;
      return Help.prototype.subcommandTerm.call(this, command);
    },
  });
  return program;
}

/**
 * The command the arguments run: the first that is not an option (the program's own options,
 * --help and --version, take no value), or the one after `help`.
 */
export function commandNamed(args: readonly string[]): string | undefined {
  const operands = args.filter((arg) => !arg.startsWith('-'));
  return operands[0] === 'help' ? operands[1] : operands[0];
}
