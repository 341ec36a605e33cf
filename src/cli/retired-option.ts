/**
 * A flag that was a second way to say what a file or a subcommand now says alone (issue "one way
 * to do each thing"). It stays registered, hidden from --help, only so that a script still
 * passing it fails with one line naming the new way, instead of commander's bare "unknown option"
 * or, worse, a run that quietly does something else. The docs tests ignore hidden options, so a
 * page still showing a retired flag fails there.
 */
import { Option, type Command } from 'commander';
import { UserError } from './user-error.js';

/** `flags` as commander writes them (`--competition <hard|soft>`); `instead`: what to do now. */
export function addRetiredOption(command: Command, flags: string, instead: string): Command {
  const option = new Option(flags).hideHelp();
  const refuse = (): never => {
    throw new UserError(`${option.long ?? flags} is no longer an option: ${instead}`, 'USAGE');
  };
  // Listening before addOption: this runs ahead of commander's own listener, which reads the value.
  command.on(`option:${option.name()}`, refuse);
  return command.addOption(option);
}
